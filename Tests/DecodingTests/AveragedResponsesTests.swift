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

    /// A live trial makes its templates a chunk at a time from the states as
    /// shown: each object finds the calibration code its states so far are
    /// the start of, despite a sample of jitter at the edges, and the blend
    /// chunk by chunk is the whole trial's.
    @Test func aLiveTrialFindsItsCodesAverageAndBlendsItChunkByChunk() throws {
        let cal = try ReconvolutionCCATests.calibration(classes: 6, trials: 24, snr: 0.1, seed: 21)
        let model = try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs,
                                             settings: Self.settings(blend: 0.5))
        let n = cal.trials[0][0].count
        let code = Array(cal.codes[3].prefix(n))
        let average = try #require(model.averagedResponse(for: code))
        #expect(model.averagedResponse(shownSoFar: code[...]) == average)
        // Shown at another phase of the frames: each edge a sample late here and there.
        var jittered = code
        let edges = (1..<n).filter { code[$0] != code[$0 - 1] }
        for i in stride(from: 0, to: edges.count, by: 3) { jittered[edges[i]] = code[edges[i] - 1] }
        #expect(zip(jittered, code).filter { $0 != $1 }.count > 10)
        #expect(model.averagedResponse(shownSoFar: jittered[...]) == average)
        // A code calibration never showed, and a start that two codes share, match nothing.
        #expect(model.averagedResponse(shownSoFar: code.map { 1 - $0 }[...]) == nil)
        let shared = zip(cal.codes[0], cal.codes[1]).prefix { $0 == $1 }.count
        if shared > 0 { #expect(model.averagedResponse(shownSoFar: cal.codes[0].prefix(shared)) == nil) }
        var blind = model
        blind.averagedResponses = []
        #expect(blind.averagedResponse(shownSoFar: code[...]) == nil)

        // Chunk by chunk, with the states before the trial dark as live: the
        // reconvolution template until the states shown tell the code apart
        // (its first bits are other codes' too), then the whole trial's blend.
        let whole = model.templates(for: [code])[0], alone = model.templates(for: [code], blend: 0)[0]
        let margin = model.latencySamples + model.kernels[0].count + 2
        var matchedFrom: Int?
        for start in stride(from: 0, to: n, by: 25) {
            let end = min(n, start + 25), from = start - margin
            let states = (from..<end).map { $0 < 0 ? UInt8(0) : code[$0] }
            let predicted = model.templates(for: [states], blend: 0)[0]
            let matched = model.averagedResponse(shownSoFar: code[..<end])
            if matched != nil, matchedFrom == nil { matchedFrom = start }
            let live = Array((matched.map { model.blended(predicted, averaged: $0, from: from) } ?? predicted)[margin...])
            let expected = Array((matched == nil ? alone : whole)[start..<end])
            #expect(zip(live, expected).allSatisfy { abs($0 - $1) <= 1e-9 * (1 + abs($1)) }, "samples \(start)..<\(end)")
            if matched != nil { #expect(matched == average) }
        }
        #expect((matchedFrom ?? n) <= Int(0.3 * cal.fs), "matched from sample \(String(describing: matchedFrom))")
    }

}
