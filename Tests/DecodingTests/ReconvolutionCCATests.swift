import Foundation
import Simulation
import TestSupport
import Testing
@testable import Decoding

/// The model against a simulated subject whose kernels and latency are known.
@Suite struct ReconvolutionCCATests {
    static func calibration(classes: Int = 9, trials: Int = 36, snr: Double = 0.3, latency: Double = 0.04,
                            jitter: Double = 0, seed: UInt64 = 5) throws -> PreprocessedSimulation {
        var simulation = DatasetSimulation(classes: classes, trials: trials, seed: seed)
        simulation.settings.snr = snr
        simulation.settings.displayLatency = latency
        simulation.settings.displayJitter = jitter
        return try PreprocessedSimulation(recording: simulation)
    }

    @Test func recoversTheSubjectsKernelsAndLatency() throws {
        let cal = try Self.calibration()
        let model = try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs)
        #expect(abs(model.latencySamples - 10) <= 1, "40 ms at 250 Hz is 10 samples; estimated \(model.latencySamples)")
        let lags = (0..<model.kernels[0].count).map { Double($0) / cal.fs }
        // The model sees the responses through the preprocessing's high-pass, so it
        // recovers the subject's kernels as that filter passes them (from rest).
        var filter = Preprocessor(sampleRate: cal.fs, channels: 1).filter
        let seenRise = filter.process([lags.map { cal.subject.riseKernel(at: $0) }])[0]
        filter = Preprocessor(sampleRate: cal.fs, channels: 1).filter
        let seenFall = filter.process([lags.map { cal.subject.fallKernel(at: $0) }])[0]
        let rise = correlation(model.kernels[0], seenRise)
        let fall = correlation(model.kernels[1], seenFall)
        #expect(rise > 0.9, "rise kernel correlation \(rise)")
        #expect(fall > 0.8, "fall kernel correlation \(fall)")
        let pattern = correlation(model.spatialPattern, cal.subject.responsePattern)
        #expect(abs(pattern) > 0.9, "spatial pattern correlation \(pattern)")
    }

    @Test func recoversALongerLatencyWithJitter() throws {
        let cal = try Self.calibration(latency: 0.1, jitter: 0.002, seed: 8)
        let model = try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs)
        #expect(abs(model.latencySamples - 25) <= 1, "100 ms at 250 Hz is 25 samples; estimated \(model.latencySamples)")
    }

    @Test func decodesCodesNeverSeenInCalibration() throws {
        let cal = try Self.calibration(classes: 12, trials: 48, snr: 0.1, seed: 11)
        let seen = cal.labels.indices.filter { cal.labels[$0] < 6 }
        let unseen = cal.labels.indices.filter { cal.labels[$0] >= 6 }
        let model = try ReconvolutionCCA.fit(
            trials: seen.map { cal.trials[$0] }, labels: seen.map { cal.labels[$0] }, codes: cal.codes, sampleRate: cal.fs)
        let templates = model.templates(for: cal.codes)
        let correct = unseen.filter { i in
            let x = model.filter(cal.trials[i])
            let scores = templates.map { correlation(x, $0) }
            return scores.indices.max { scores[$0] < scores[$1] } == cal.labels[i]
        }
        #expect(Double(correct.count) / Double(unseen.count) >= 0.9, "\(correct.count) of \(unseen.count) unseen-code trials")
    }

    @Test func durationEventsAlsoDecode() throws {
        let cal = try Self.calibration(trials: 27, snr: 0.1, seed: 21)
        var settings = ReconvolutionSettings()
        settings.event = .duration
        let train = Array(0..<18), test = Array(18..<27)
        let model = try ReconvolutionCCA.fit(trials: train.map { cal.trials[$0] }, labels: train.map { cal.labels[$0] },
                                             codes: cal.codes, sampleRate: cal.fs, settings: settings)
        #expect(model.kernels.count == model.encoder.durations.count && model.kernels.count >= 3)
        let templates = model.templates(for: cal.codes)
        let correct = test.filter { i in
            let scores = templates.map { correlation(model.filter(cal.trials[i]), $0) }
            return scores.indices.max { scores[$0] < scores[$1] } == cal.labels[i]
        }
        #expect(correct.count >= 8)
    }

    @Test func refusesACalibrationWithOneClass() throws {
        let cal = try Self.calibration(classes: 2, trials: 4, seed: 2)
        let one = cal.labels.indices.filter { cal.labels[$0] == 0 }
        #expect(throws: ReconvolutionError.notEnoughData("one class only")) {
            try ReconvolutionCCA.fit(trials: one.map { cal.trials[$0] }, labels: one.map { cal.labels[$0] },
                                     codes: cal.codes, sampleRate: cal.fs)
        }
    }

    @Test func refusesTrialsWithNaN() throws {
        var cal = try Self.calibration(classes: 2, trials: 4, seed: 2)
        cal.trials[2][5][100] = .nan
        #expect(throws: ReconvolutionError.nonFinite(trial: 2)) {
            try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs)
        }
    }

    @Test func codesThatNeverFlashAreAnErrorNotACrash() throws {
        let cal = try Self.calibration(classes: 2, trials: 4, seed: 2)
        let dark = cal.codes.map { [UInt8](repeating: 0, count: $0.count) }
        #expect(throws: ReconvolutionError.self) {
            try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: dark, sampleRate: cal.fs)
        }
    }

    /// A singular covariance says whose it is, in words: the codes' or the EEG's.
    @Test func aSingularCovarianceNamesTheCodesOrTheEEG() throws {
        let cal = try Self.calibration(classes: 2, trials: 4, seed: 2)
        let flat = cal.trials.map { $0.map { [Double](repeating: 0, count: $0.count) } }
        do {
            _ = try ReconvolutionCCA.fit(trials: flat, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs,
                                         settings: { var s = ReconvolutionSettings(); s.fixedLatency = 0; return s }(), measuringLatency: false)
            Issue.record("fitted flat EEG")
        } catch let error as ReconvolutionError {
            guard case .singular(_, of: .eeg) = error else { Issue.record("\(error)"); return }
            #expect("\(error)".hasPrefix("the EEG does not vary"))
        }
    }

    /// Settings selection computes the structure covariances once per fold and
    /// event, over every candidate's lags, and each fit takes its block: a fit
    /// from a block must be the fit from scratch, to the bit, for each window
    /// the grid has (from the stimulus, from an estimated latency) and events.
    @Test func aFitFromAWiderWindowsCovariancesIsTheSameFit() throws {
        let cal = try Self.calibration(trials: 27, snr: 0.1, seed: 21)
        let sums = CovarianceSums(trials: cal.trials, labels: cal.labels)
        let n = cal.trials[0][0].count
        for event in [EventDefinition.risingFallingEdges, .duration] {
            var grid: [ReconvolutionSettings] = []
            for (latency, length) in [(0.0, 0.3), (0.0, 0.5), (nil, 0.3)] as [(Double?, Double)] {
                var s = ReconvolutionSettings()
                s.event = event
                s.fixedLatency = latency
                s.encodingLength = length
                grid.append(s)
            }
            let spans = grid.map { ReconvolutionCCA.lags(of: $0, sampleRate: cal.fs, measuringLatency: false) }
            let lags = spans.map(\.lowerBound).min()!..<spans.map(\.upperBound).max()!
            let encoder = EventEncoder(definition: event, fitting: cal.codes.map { Array($0.prefix(n)) })
            let wide = StructureCovariances(sums, codes: cal.codes, encoder: encoder, n: n, firstLag: lags.lowerBound,
                                            lagCount: lags.count)
            for settings in grid {
                let alone = try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs,
                                                     settings: settings, statistics: sums)
                let shared = try ReconvolutionCCA.fit(trials: cal.trials, labels: cal.labels, codes: cal.codes, sampleRate: cal.fs,
                                                      settings: settings, statistics: sums, structure: wide)
                #expect(shared.spatialFilter == alone.spatialFilter && shared.kernels == alone.kernels
                        && shared.latencySamples == alone.latencySamples, "\(event), \(settings)")
            }
            for span in spans {
                let block = try #require(wide.window(of: encoder, firstLag: span.lowerBound, lagCount: span.count))
                let direct = StructureCovariances(sums, codes: cal.codes, encoder: encoder, n: n, firstLag: span.lowerBound,
                                                  lagCount: span.count)
                #expect(block.cxm == direct.cxm && block.cmm == direct.cmm, "\(event), lags \(span)")
            }
            // A window reaching outside the computed one is not taken from it.
            #expect(wide.window(of: encoder, firstLag: lags.lowerBound - 1, lagCount: 2) == nil)
        }
    }
}
