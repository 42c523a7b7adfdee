import Codes
import Foundation
import Simulation
import TestSupport
import Testing
@testable import Decoding

/// Templates that draw on the calibration's averaged responses
/// (`ReconvolutionSettings.templateBlend`).
@Suite struct AveragedResponsesTests {
    static func settings(blend: Double) -> ReconvolutionSettings {
        var s = ReconvolutionSettings()
        s.whiteningLength = 0
        s.templateBlend = blend
        return s
    }

    @Test func codesCalibrationNeverShowedKeepTheReconvolutionTemplate() throws {
        let cal = try ReconvolutionCCATests.calibration(classes: 12, trials: 48, snr: 0.1, seed: 11)
        let seen = cal.labels.indices.filter { cal.labels[$0] < 6 }
        let model = try ReconvolutionCCA.fit(trials: seen.map { cal.trials[$0] }, labels: seen.map { cal.labels[$0] },
                                             codes: cal.codes, sampleRate: cal.fs, settings: Self.settings(blend: 0.5))
        let pure = model.templates(for: cal.codes, blend: 0)
        let blended = model.templates(for: cal.codes)
        #expect(Array(blended[6...]) == Array(pure[6...]), "codes 6-11 were never shown in calibration")
        for k in 0..<6 { #expect(correlation(blended[k], pure[k]) < 0.999, "code \(k) was shown: its template blends") }
        // A code shown in one calibration trial only has no average: one trial is mostly noise.
        let firstOfZero = try #require(seen.first { cal.labels[$0] == 0 })
        let once = seen.filter { cal.labels[$0] != 0 || $0 == firstOfZero }
        #expect(once.filter { cal.labels[$0] == 0 }.count == 1)
        let sparse = try ReconvolutionCCA.fit(trials: once.map { cal.trials[$0] }, labels: once.map { cal.labels[$0] },
                                              codes: cal.codes, sampleRate: cal.fs, settings: Self.settings(blend: 0.5))
        #expect(sparse.templates(for: [cal.codes[0]]) == sparse.templates(for: [cal.codes[0]], blend: 0))
        #expect(sparse.templates(for: [cal.codes[1]]) != sparse.templates(for: [cal.codes[1]], blend: 0))
        // A code shown at another phase is another stimulus: no average of it exists.
        let shifted = Array(cal.codes[0][7...] + cal.codes[0][..<7])
        #expect(model.templates(for: [shifted]) == model.templates(for: [shifted], blend: 0))
    }

    @Test func aFullBlendIsTheAverageOfTheTrialsThatShowedTheCode() throws {
        let cal = try ReconvolutionCCATests.calibration(trials: 27, seed: 4)
        let model = try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs,
                                             settings: Self.settings(blend: 1))
        let n = cal.trials[0][0].count
        let trials = cal.labels.indices.filter { cal.labels[$0] == 2 }
        var mean = [Double](repeating: 0, count: n)
        for i in trials { for (t, x) in model.filter(cal.trials[i]).enumerated() { mean[t] += x / Double(trials.count) } }
        let template = model.templates(for: [cal.codes[2]])[0]
        #expect(correlation(Array(template.prefix(n)), mean) > 0.999_999)
    }

    /// Each class's response carries, besides the responses to its flashes,
    /// a waveform of its own that no sum of event responses explains (as the
    /// Thielen 2021 recordings appear to): the averaged responses catch it.
    @Test func averagedResponsesCatchWhatTheEventResponsesMiss() throws {
        var cal = try ReconvolutionCCATests.calibration(classes: 8, trials: 96, snr: 0.01, seed: 13)
        let n = cal.trials[0][0].count, pattern = cal.subject.responsePattern
        var g = SeededGenerator(seed: 99)
        let own = (0..<8).map { _ in
            // Smoothed noise: a class-specific waveform in the response's band.
            var y = 0.0
            return (0..<n).map { _ in y = 0.8 * y + Double.random(in: -1...1, using: &g); return y }
        }
        let scale = cal.trials.map { $0[0].map { $0 * $0 }.reduce(0, +) / Double(n) }.reduce(0, +).squareRoot()
            / Double(cal.trials.count).squareRoot()
        for i in cal.trials.indices {
            for c in cal.trials[i].indices {
                for t in 0..<n { cal.trials[i][c][t] += 0.25 * scale * pattern[c] * own[cal.labels[i]][t] }
            }
        }
        let train = Array(0..<64), test = Array(64..<96)
        func accuracy(blend: Double, seconds: Double) throws -> Double {
            let model = try ReconvolutionCCA.fit(trials: train.map { cal.trials[$0] }, labels: train.map { cal.labels[$0] },
                                                 codes: cal.codes, sampleRate: cal.fs, settings: Self.settings(blend: blend))
            let m = Int(seconds * cal.fs)
            let templates = model.templates(for: cal.codes).map { Array($0.prefix(m)) }
            let right = test.filter { i in
                let x = Array(model.filter(cal.trials[i]).prefix(m))
                let scores = templates.map { correlation(x, $0) }
                return scores.indices.max { scores[$0] < scores[$1] } == cal.labels[i]
            }
            return Double(right.count) / Double(test.count)
        }
        let alone = try accuracy(blend: 0, seconds: 0.5), blended = try accuracy(blend: 0.5, seconds: 0.5)
        #expect(blended >= alone + 0.15, "at 0.5 s: \(alone) with the event responses alone, \(blended) blended")
    }
}
