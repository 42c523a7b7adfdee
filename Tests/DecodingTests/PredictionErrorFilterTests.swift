import Codes
import Foundation
import Simulation
import TestSupport
import Testing
@testable import Decoding

/// The temporal whitening of the filtered EEG: it learns the background's
/// colour, streams exactly like a whole-signal filter, and makes short
/// trials decode better than scoring the coloured signal as it is.
@Suite struct PredictionErrorFilterTests {
    /// An AR(2) process x[i] = 1.5 x[i−1] − 0.7 x[i−2] + e[i]: strongly
    /// coloured (a resonance near 0.09 of the sample rate), like alpha.
    static func autoregressive(count: Int, seed: UInt64) -> [Double] {
        var rng = SeededGenerator(seed: seed)
        var x = [Double](repeating: 0, count: count)
        for i in 2..<count { x[i] = 1.5 * x[i - 1] - 0.7 * x[i - 2] + rng.nextGaussian() }
        return x
    }

    @Test func itRecoversTheCoefficientsOfAnAutoregressiveBackground() {
        let segments = (0..<20).map { Self.autoregressive(count: 1000, seed: UInt64($0)) }
        let filter = PredictionErrorFilter.fit(residuals: segments, order: 4)
        #expect(filter.order == 4)
        #expect(abs(filter.taps[1] + 1.5) < 0.05 && abs(filter.taps[2] - 0.7) < 0.05, "taps \(filter.taps)")
        #expect(abs(filter.taps[3]) < 0.05 && abs(filter.taps[4]) < 0.05, "taps \(filter.taps)")
        // Its output is white: neighbouring samples no longer correlate.
        let e = filter.apply(Self.autoregressive(count: 5000, seed: 99))
        let lag1 = zip(e.dropFirst(), e).reduce(0) { $0 + $1.0 * $1.1 } / e.reduce(0) { $0 + $1 * $1 }
        #expect(abs(lag1) < 0.05, "lag-1 correlation \(lag1)")
    }

    @Test func streamingInPiecesEqualsFilteringTheWholeSignal() {
        let filter = PredictionErrorFilter(taps: [1, -0.9, 0.3, 0.1])
        let signal = Self.autoregressive(count: 200, seed: 5)
        let whole = filter.apply(signal)
        var state = filter.makeState()
        var pieces: [Double] = []
        var start = 0
        for size in [1, 2, 7, 40, 150] {
            pieces += filter.apply(Array(signal[start..<(start + size)]), state: &state)
            start += size
        }
        #expect(pieces.count == whole.count)
        #expect(zip(pieces, whole).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    /// The fit's autocorrelation and the filter sum their terms in the
    /// textbook order (lag by lag over the samples; tap by tap per output),
    /// so the faster loops give the same filter and output to the bit, for
    /// every order and for signals shorter than the filter.
    @Test func fitAndFilterAddTheirTermsInTheTextbookOrder() throws {
        let segments = (0..<3).map { Self.autoregressive(count: 300, seed: UInt64($0 + 40)) }
        for order in [1, 2, 3, 4, 5, 7, 8, 13, 20] {
            var r = [Double](repeating: 0, count: order + 1)
            for segment in segments {
                let mean = segment.reduce(0, +) / Double(segment.count)
                let c = segment.map { $0 - mean }
                for lag in 0...order {
                    var sum = 0.0
                    for i in lag..<c.count { sum += c[i] * c[i - lag] }
                    r[lag] += sum
                }
            }
            var toeplitz = Matrix(rows: order, columns: order)
            for i in 0..<order {
                for j in 0..<order { toeplitz[i, j] = r[abs(i - j)] }
                toeplitz[i, i] += 1e-6 * r[0]
            }
            let a = try CholeskyFactor(toeplitz).solve(Matrix(rows: 1, columns: order, elements: Array(r[1...]))).elements
            let filter = PredictionErrorFilter.fit(residuals: segments, order: order)
            #expect(filter.taps == [1] + a.map { -$0 }, "order \(order)")

            let signal = Self.autoregressive(count: 50, seed: 7)
            for count in [0, 1, order - 1, order, order + 1, 50] where count >= 0 {
                let piece = Array(signal.prefix(count))
                let history = Array(signal.suffix(order))
                var state = history
                let out = filter.apply(piece, state: &state)
                let expected = piece.indices.map { i in
                    var e = piece[i]
                    for j in 1...order { e += filter.taps[j] * (i - j >= 0 ? piece[i - j] : history[order + i - j]) }
                    return e
                }
                #expect(out == expected, "order \(order), \(count) samples")
            }
        }
    }

    @Test func aFloorBoundsTheGainInABandTheSignalHardlyHas() {
        // White noise through three 6-sample moving averages: low-passed upstream, its top band nearly empty.
        var rng = SeededGenerator(seed: 3)
        var x = (0..<4000).map { _ in rng.nextGaussian() }
        for _ in 0..<3 { x = x.indices.map { i in x[max(0, i - 5)...i].reduce(0, +) / 6 } }
        func largestGain(_ filter: PredictionErrorFilter) -> Double {
            (0...256).map { step in
                let omega = Double.pi * Double(step) / 256
                let re = filter.taps.enumerated().reduce(0) { $0 + $1.element * cos(omega * Double($1.offset)) }
                let im = filter.taps.enumerated().reduce(0) { $0 + $1.element * sin(omega * Double($1.offset)) }
                return (re * re + im * im).squareRoot()
            }.max() ?? 0
        }
        let bare = PredictionErrorFilter.fit(residuals: [x], order: 20)
        let floored = PredictionErrorFilter.fit(residuals: [x], order: 20, floor: 0.1)
        // The largest gain, where the signal has nothing, is about 1/√floor at most; without a floor it is far larger.
        #expect(largestGain(floored) < (1.1 / 0.1).squareRoot(), "\(floored.taps)")
        #expect(largestGain(bare) > 3 * largestGain(floored), "without a floor the empty band is amplified: \(bare.taps)")
    }

    @Test func aFlatOrMissingBackgroundGivesTheIdentity() {
        #expect(PredictionErrorFilter.fit(residuals: [[Double](repeating: 2, count: 100)], order: 5) == .identity)
        #expect(PredictionErrorFilter.fit(residuals: [], order: 5) == .identity)
        #expect(PredictionErrorFilter.fit(residuals: [[1, 2, 3]], order: 5) == .identity)
        #expect(PredictionErrorFilter.fit(residuals: [[1, 2, 3, 4]], order: 0) == .identity)
        #expect(PredictionErrorFilter.identity.apply([1, 2, 3]) == [1, 2, 3])
    }

    @Test(.tags(.heavy), .heavyComputation) func whiteningDecodesShortTrialsBetterThanTheColouredSignal() throws {
        var simulation = DatasetSimulation(classes: 9, trials: 30, seed: 8)
        simulation.settings.snr = 0.02
        let dataset = try simulation.record()
        var plain = OfflineEvaluation()
        plain.settings.whiteningLength = 0
        let without = try plain.run(dataset)
        let with = try OfflineEvaluation().run(dataset)
        let gain = (0..<2).map { with.rows[$0].accuracy - without.rows[$0].accuracy }
        #expect(gain.allSatisfy { $0 > 0.05 }, "accuracy at 0.5 and 1 s: \(without.rows.map(\.accuracy)) → \(with.rows.map(\.accuracy))")
        #expect(with.rows[3].accuracy >= without.rows[3].accuracy)
    }
}
