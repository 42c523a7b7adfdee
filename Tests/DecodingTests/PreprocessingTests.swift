import Codes
import Foundation
import Testing
@testable import Decoding

/// Filters and spectra measured the way a user would: sinusoids in, amplitudes out.
@Suite struct PreprocessingTests {
    static let fs = 250.0

    static func sine(_ f: Double, seconds: Double = 8, fs: Double = fs) -> [Double] {
        (0..<Int(seconds * fs)).map { sin(2 * Double.pi * f * Double($0) / fs) }
    }

    /// RMS gain of `filter` on a sinusoid, measured on the last half (after the transient).
    static func measuredGain(_ filter: SOSFilter, at f: Double) -> Double {
        var filter = filter
        let x = sine(f)
        let y = filter.process([x])[0]
        let half = x.count / 2
        func rms(_ v: ArraySlice<Double>) -> Double { (v.reduce(0) { $0 + $1 * $1 } / Double(v.count)).squareRoot() }
        return rms(y[half...]) / rms(x[half...])
    }

    @Test func bandPassPassesTheBandAndStopsOutside() {
        let f = SOSFilter.bandPass(low: 1, high: 40, order: 4, sampleRate: Self.fs, channels: 1)
        for pass in [5.0, 10, 20, 30] { #expect(abs(Self.measuredGain(f, at: pass) - 1) < 0.05, "pass \(pass) Hz") }
        #expect(Self.measuredGain(f, at: 80) < 0.05)
        #expect(Self.measuredGain(f, at: 0.1) < 0.01)
        #expect(abs(Self.measuredGain(f, at: 40) - 1 / 2.0.squareRoot()) < 0.03, "−3 dB at the corner")
    }

    @Test func notchRemovesMainsAndKeepsNeighbours() {
        let f = SOSFilter.notch(frequency: 50, quality: 30, sampleRate: Self.fs, channels: 1)
        #expect(Self.measuredGain(f, at: 50) < 0.01)
        #expect(Self.measuredGain(f, at: 40) > 0.95)
        #expect(Self.measuredGain(f, at: 10) > 0.99)
    }

    @Test func notchIsFrequencyOverQualityWideAtMinusThreeDecibels() {
        // scipy.signal.iirnotch(50, 30, fs=250): b = [0.97948, -0.60535, 0.97948], a = [1, -0.60535, 0.95896].
        let f = SOSFilter.notch(frequency: 50, quality: 30, sampleRate: Self.fs, channels: 1)
        let section = Biquad.notch(frequency: 50, quality: 30, sampleRate: Self.fs)
        #expect(abs(section.b0 - 0.979482) < 1e-5 && abs(section.b1 + 0.605346) < 1e-5 && abs(section.a2 - 0.958965) < 1e-5)
        // The band where the gain is under 1/√2 is 50/30 Hz wide.
        let edges = stride(from: 45.0, through: 55.0, by: 0.001).filter { f.gain(at: $0, sampleRate: Self.fs) < 1 / 2.0.squareRoot() }
        let width = (edges.last ?? 0) - (edges.first ?? 0)
        #expect(abs(width - 50.0 / 30) < 0.01, "−3 dB band \(width) Hz")
    }

    @Test func measuredGainMatchesTheDesignedResponse() {
        let f = SOSFilter.bandPass(low: 2, high: 30, order: 4, sampleRate: Self.fs, channels: 1)
            .followed(by: .notch(frequency: 50, quality: 30, sampleRate: Self.fs, channels: 1))
        for freq in [3.0, 15, 35, 50, 60] {
            #expect(abs(Self.measuredGain(f, at: freq) - f.gain(at: freq, sampleRate: Self.fs)) < 0.01, "\(freq) Hz")
        }
    }

    @Test func chunkedFilteringEqualsOneShot() {
        var rng = SeededGenerator(seed: 3)
        let x = (0..<3).map { _ in (0..<1000).map { _ in rng.nextGaussian() } }
        var whole = SOSFilter.bandPass(low: 1, high: 40, order: 4, sampleRate: Self.fs, channels: 3)
            .followed(by: .notch(frequency: 50, quality: 30, sampleRate: Self.fs, channels: 3))
        var chunked = whole
        let expected = whole.process(x)
        var got = [[Double]](repeating: [], count: 3)
        var start = 0
        for size in [1, 7, 100, 250, 642] {
            let part = x.map { Array($0[start..<(start + size)]) }
            for (c, row) in chunked.process(part).enumerated() { got[c] += row }
            start += size
        }
        #expect(got == expected)
    }

    @Test func primingRemovesTheOffsetTransient() {
        var primed = SOSFilter.bandPass(low: 1, high: 40, order: 4, sampleRate: Self.fs, channels: 1)
        var cold = primed
        let x = [Double](repeating: 500, count: 500)
        primed.prime(with: [500])
        #expect(primed.process([x])[0].allSatisfy { abs($0) < 1e-6 })
        #expect(cold.process([x])[0].contains { abs($0) > 100 })
    }

    @Test func downsamplerKeepsLowAndRejectsAliasingFrequencies() {
        func outputRMS(_ f: Double) -> Double {
            var down = Downsampler(factor: 2, sampleRate: Self.fs, channels: 1)
            let y = down.process([Self.sine(f)])[0]
            let tail = y[(y.count / 2)...]
            return (tail.reduce(0) { $0 + $1 * $1 } / Double(tail.count)).squareRoot()
        }
        #expect(abs(outputRMS(10) - 1 / 2.0.squareRoot()) < 0.03)
        #expect(outputRMS(100) < 0.01, "100 Hz would alias to 25 Hz at 125 Hz")
    }

    @Test func chunkedDownsamplingEqualsOneShot() {
        var rng = SeededGenerator(seed: 9)
        let x = [(0..<999).map { _ in rng.nextGaussian() }]
        var whole = Downsampler(factor: 3, sampleRate: Self.fs, channels: 1)
        var chunked = whole
        let expected = whole.process(x)[0]
        var got: [Double] = []
        var start = 0
        for size in [5, 1, 2, 400, 591] {
            got += chunked.process([Array(x[0][start..<(start + size)])])[0]
            start += size
        }
        #expect(got == expected)
        #expect(got.count == 333)
    }

    @Test func welchFindsASinusoidAndItsPower() {
        let amplitude = 3.0
        let x = Self.sine(12.5, seconds: 20).map { $0 * amplitude }
        let psd = Spectrum.welch(x, sampleRate: Self.fs, segmentLength: 500)
        let peak = psd.density.indices.max { psd.density[$0] < psd.density[$1] }!
        #expect(psd.frequencies[peak] == 12.5)
        let power = psd.bandPower(11...14)
        #expect(abs(power - amplitude * amplitude / 2) / (amplitude * amplitude / 2) < 0.05)
    }

    @Test func welchOfWhiteNoiseIsFlatAtItsVariance() {
        var rng = SeededGenerator(seed: 1)
        let x = (0..<50_000).map { _ in rng.nextGaussian() }
        let psd = Spectrum.welch(x, sampleRate: Self.fs)
        let interior = psd.density[5..<120]
        let mean = interior.reduce(0, +) / Double(interior.count)
        #expect(abs(mean - 2 / Self.fs) / (2 / Self.fs) < 0.05, "one-sided density of unit variance noise")
    }
}

/// Resampling between rates that are no integer multiple of each other.
@Suite struct ResamplerTests {
    static func rms<C: Collection>(_ v: C) -> Double where C.Element == Double {
        (v.reduce(0) { $0 + $1 * $1 } / Double(v.count)).squareRoot()
    }

    @Test func from256To250KeepsTheEEGBandAndDropsWhatWouldAlias() {
        func outputRMS(_ f: Double) -> Double {
            var resampler = Resampler(from: 256, to: 250, channels: 1)
            let y = resampler.process([PreprocessingTests.sine(f, seconds: 8, fs: 256)])[0]
            return Self.rms(y[(y.count / 2)...])
        }
        #expect(abs(outputRMS(10) - 1 / 2.0.squareRoot()) < 0.01)
        #expect(abs(outputRMS(40) - 1 / 2.0.squareRoot()) < 0.03)
        #expect(outputRMS(127) < 0.01, "127 Hz has no place below 125 Hz")
    }

    @Test func aSinusoidComesOutAtItsFrequencyAndPhase() {
        var resampler = Resampler(from: 200, to: 250, channels: 1)
        let y = resampler.process([PreprocessingTests.sine(7, seconds: 4, fs: 200)])[0]
        #expect(abs(y.count - 1000) <= 3)
        let expected = (0..<y.count).map { sin(2 * Double.pi * 7 * Double($0) / 250) }
        #expect(zip(y, expected).allSatisfy { abs($0 - $1) < 0.01 })
    }

    @Test func chunkedResamplingEqualsOneShot() {
        var rng = SeededGenerator(seed: 5)
        let x = (0..<2).map { _ in (0..<1000).map { _ in rng.nextGaussian() } }
        var whole = Resampler(from: 256, to: 250, channels: 2)
        var chunked = whole
        let expected = whole.process(x)
        var got = [[Double]](repeating: [], count: 2)
        var start = 0
        for size in [1, 2, 3, 97, 400, 497] {
            for (c, row) in chunked.process(x.map { Array($0[start..<(start + size)]) }).enumerated() { got[c] += row }
            start += size
        }
        #expect(got == expected)
    }
}

@Suite struct ChannelReferenceTests {
    @Test func theCommonAverageTakesOutWhatEveryChannelShares() {
        let shared = (0..<100).map { sin(Double($0) / 5) * 40 }
        let block = [shared.map { $0 + 1 }, shared.map { $0 - 1 }, shared]
        let referenced = ChannelReference.commonAverage.apply(to: block)
        #expect(referenced[0].allSatisfy { abs($0 - 1) < 1e-9 } && referenced[1].allSatisfy { abs($0 + 1) < 1e-9 })
        #expect(ChannelReference.asRecorded.apply(to: block) == block)
        #expect(ChannelReference.commonAverage.apply(to: [shared]) == [shared], "one channel has nothing to average against")
        // The preprocessor re-references before its filter.
        let pre = Preprocessor(sampleRate: 250, channels: 3, reference: .commonAverage)
        let out = pre.apply(toTrial: block)
        #expect(out[2].map(abs).max()! < 1e-6)
    }
}
