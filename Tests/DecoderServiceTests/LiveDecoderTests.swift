import Decoding
import DecoderService
import Foundation
import Simulation
import TestSupport
import Testing
import UtopiaProtocol

/// The live decoder on virtual time: it confirms modes, calibrates on the
/// trials it is shown, predicts the object the simulated user looks at, and
/// copes with bad input without ever sending NaN.
@Suite struct LiveDecoderTests {
    static func simulated(_ gaze: GazeScript) -> DecoderServerSettings {
        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.05, seed: 3, gaze: gaze)
        return settings
    }

    @Test func aSupportedModeIsConfirmedWithTheSameTextAndAnUnknownOneIsNot() {
        var session = VirtualSession(settings: DecoderServerSettings())
        session.mode("Calibration.supervised")
        session.mode("Predict.static")
        session.mode("Juggling")
        let echoes = session.sent.compactMap { if case .modeChange(let m) = $0 { return m.newMode } else { return nil } }
        #expect(echoes == ["Calibration.supervised", "Predict.static"])
        #expect(session.decoder.mode == .prediction)
        #expect(session.logs().contains { $0.contains("\"Juggling\" is not supported") })
    }

    @Test(.tags(.heavy), .heavyComputation) func calibrationThenPredictionFindsTheObjectTheUserLooksAt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = Self.simulated(.goals([2, 4, 1]))
        settings.calibrationFolder = folder
        var session = VirtualSession(settings: settings)
        session.mode("Calibration.supervised")
        for t in 0..<8 { session.trial(seconds: 2, cued: t % 4 + 1) }
        session.mode("Prediction.static")
        session.wait(200)
        let model = try #require(session.decoder.model)
        #expect(abs(model.model.responseLatency - 0.040) <= 0.004)
        let thresholds = session.sent.compactMap { if case .certaintyThreshold(let t) = $0 { return t.threshold } else { return nil } }
        #expect(thresholds.count == 1 && thresholds[0] >= 0.5 && thresholds[0] <= 1)
        #expect(session.logs().contains { $0.contains("cross-validated accuracy") })
        #expect(session.logs().contains { $0.contains("decoding curve") })
        // The same facts typed: one CALIBRATIONRESULT, before the threshold, with the accuracy the LOG gives.
        let results = session.sent.compactMap { if case .calibrationResult(let r) = $0 { return r } else { return nil } }
        let result = try #require(results.first)
        #expect(results.count == 1 && result.fitted && result.trials == 8)
        #expect(result.accuracy >= 0 && result.accuracy <= 1 && abs(result.seconds - 2) < 0.05)
        #expect(result.summary.contains("latency") && result.summary.contains("whitening"), "the chosen settings: \(result.summary)")
        let resultIndex = try #require(session.sent.firstIndex { if case .calibrationResult = $0 { return true } else { return false } })
        let thresholdIndex = try #require(session.sent.firstIndex { if case .certaintyThreshold = $0 { return true } else { return false } })
        #expect(resultIndex < thresholdIndex)
        let logged = try #require(session.logs().first { $0.contains("cross-validated accuracy") })
        #expect(logged.contains(String(format: "accuracy %.0f %%", result.accuracy * 100)))
        let saved = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(saved.count == 1)
        let dataset = try TrialsDataset.read(from: folder.appendingPathComponent(saved[0]))
        #expect(dataset.header.nTrials == 8 && dataset.header.nClasses == 4)

        for goal in [2, 4, 1] {
            let before = session.sent.count
            session.trial(seconds: 2)
            let predictions = session.predictions(from: before)
            let last = try #require(predictions.last)
            #expect(last.objID == Int8(goal))
            #expect(last.errorProbability < 0.05)
            #expect(predictions.allSatisfy { $0.errorProbability.isFinite })
        }
        // The script is done: the user looks at nothing, and no prediction reaches the recommended certainty.
        for _ in 0..<2 {
            let before = session.sent.count
            session.trial(seconds: 3)
            let predictions = session.predictions(from: before)
            #expect(!predictions.isEmpty)
            #expect(predictions.allSatisfy { 1 - Double($0.errorProbability) < model.recommendedCertainty })
        }
    }

    @Test(.tags(.heavy), .heavyComputation) func inVerifyTrialsTheSimulatedUserLooksAtTheCuedTargetAndTheDecoderFindsIt() throws {
        var session = VirtualSession(settings: Self.simulated(.target))
        session.mode("Calibration.supervised")
        for t in 0..<8 { session.trial(seconds: 2, cued: t % 4 + 1) }
        session.mode("Prediction.static")
        session.wait(200)
        _ = try #require(session.decoder.model)
        // Verify: object 0 copies the cued object; the user looks there, and
        // the decoder names that object, never the copy.
        for cued in [3, 1, 4, 2] {
            let before = session.sent.count
            session.trial(seconds: 2, cued: cued)
            let predictions = session.predictions(from: before)
            #expect(predictions.last?.objID == Int8(cued))
            #expect(predictions.allSatisfy { $0.objID != 0 })
        }
        // An uncued Test trial: `target` looks at nothing, so nothing becomes certain.
        let before = session.sent.count
        session.trial(seconds: 2)
        let model = try #require(session.decoder.model)
        #expect(session.predictions(from: before).allSatisfy { 1 - Double($0.errorProbability) < model.recommendedCertainty })
    }

    @Test func theFitUsesTheContinuouslyFilteredSignalNotEachTrialFilteredAlone() throws {
        var session = VirtualSession(settings: Self.simulated(.target))
        session.mode("Calibration.supervised")
        for t in 0..<3 { session.trial(seconds: 2, cued: t % 3 + 1) }
        session.send(.modeChange(ModeChange(timestamp: session.stamp, newMode: "Prediction.static")))
        var job: CalibrationJob?
        for _ in 0..<400 where job == nil {
            session.now += 10
            _ = session.decoder.advance(now: session.now)
            job = session.decoder.takeCalibrationJob()
        }
        let calibration = try #require(job)
        let bands = try #require(calibration.filteredTrials)
        #expect(Set(bands.keys) == Set(FitCandidate.standardBands))
        let filtered = try #require(bands[nil])
        #expect(filtered.count == 3 && filtered[0].count == 8 && filtered[0][0].count == calibration.dataset.header.nSamples)
        // The simulated amplifier's 50 Hz mains was found as the first trial got under way (no line frequency was given).
        #expect(session.logs().contains { $0.hasPrefix("decoder: mains found at 50 Hz in the first ") }, "\(session.logs())")
        // Filtered alone, a trial starts with the filters' start-up (the
        // mains notch rings for ~0.2 s); the live filter had run for seconds
        // before. Once that has died away both agree.
        let alone = Preprocessor(sampleRate: 250, channels: 8, harmonics: true).apply(toTrial: calibration.dataset.trial(0))
        func rms(_ x: ArraySlice<Double>) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(x.count)).squareRoot() }
        let startDifference = rms(zip(filtered[0][0].prefix(50), alone[0].prefix(50)).map { $0 - $1 }[...])
        let lateDifference = rms(zip(filtered[0][0].suffix(100), alone[0].suffix(100)).map { $0 - $1 }[...])
        #expect(startDifference > 10 * lateDifference, "start \(startDifference), end \(lateDifference)")
        #expect(lateDifference < 0.05 * rms(filtered[0][0].suffix(100)))
        // The low-passed band is the same trials through the live 3-30 Hz filter.
        let lowPassed = try #require(bands[30])
        let aloneLow = Preprocessor(sampleRate: 250, channels: 8, lowPass: 30, harmonics: true).apply(toTrial: calibration.dataset.trial(0))
        #expect(rms(zip(lowPassed[0][0].suffix(100), aloneLow[0].suffix(100)).map { $0 - $1 }[...]) < 0.05 * rms(lowPassed[0][0].suffix(100)))
        // It chooses among what it scores live: the grid in both live bands (its
        // trials show each code once, so no candidate has an average to blend).
        let outcome = try calibration.chooseSettings()
        #expect(outcome.rankings.count == FitCandidate.standardGrid.filter { $0.settings.templateBlend == 0 }.count)
        #expect(Set(outcome.rankings.map(\.candidate.lowPass)) == Set(FitCandidate.standardBands))
    }

    @Test(.tags(.heavy), .heavyComputation) func theMainsIsFoundLiveAsOfflineUnlessAFrequencyIsGiven() {
        var sixty = Self.simulated(.target)
        sixty.simulation?.amplifier.lineFrequency = 60
        sixty.simulation?.amplifier.lineAmplitude = 20
        var session = VirtualSession(settings: sixty)
        session.wait(11_000)
        #expect(session.logs().contains("decoder: mains found at 60 Hz in the first 10.0 s of EEG: notched with its harmonics"),
                "\(session.logs())")
        // Given, it is kept: nothing is looked for.
        var given = sixty
        given.lineFrequency = 50
        #expect(!given.findsLineFrequency)
        var fixed = VirtualSession(settings: given)
        fixed.wait(11_000)
        #expect(!fixed.logs().contains { $0.contains("mains") }, "\(fixed.logs())")
        // None standing out: the notch stays where it was, and the log says so.
        var quiet = Self.simulated(.target)
        quiet.simulation?.amplifier.lineAmplitude = 0
        var silent = VirtualSession(settings: quiet)
        silent.wait(11_000)
        #expect(silent.logs().contains("decoder: no mains found in the first 10.0 s of EEG: the notch stays at 50 Hz"), "\(silent.logs())")
    }

    /// The settings' idle-press budget reaches the calibration: on the same
    /// trials a budget of 10 false presses a minute recommends a lower
    /// threshold than one of a press in 100 minutes.
    @Test(.tags(.heavy), .heavyComputation) func theIdlePressBudgetSetsHowStrictTheRecommendedThresholdIs() throws {
        let dataset = try DatasetSimulation(classes: 9, trials: 20, seed: 7).record()
        func threshold(_ rate: Double) throws -> Double {
            var settings = DecoderServerSettings()
            settings.idlePressesPerMinute = rate
            return try #require(CalibrationJob(dataset: dataset, settings: settings).run(measuringFitTime: false).decoder).recommendedCertainty
        }
        let strict = try threshold(0.01), lax = try threshold(10)
        #expect(strict > lax, "\(strict) at 0.01 a minute, \(lax) at 10")
    }

    /// A calibration folder that cannot be made is said in one line naming
    /// it and why; the fit goes on.
    @Test func aCalibrationThatCannotBeSavedSaysWhereAndWhyAndStillFits() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-folder-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var settings = DecoderServerSettings()
        settings.calibrationFolder = file.appendingPathComponent("calibrations", isDirectory: true)
        let outcome = CalibrationJob(dataset: try DatasetSimulation(classes: 4, trials: 8, seed: 2).record(), settings: settings)
            .run(measuringFitTime: false)
        let line = try #require(outcome.log.first)
        #expect(line.hasPrefix("calibration not saved: \(file.path)/calibrations/calibration-") && line.contains(": cannot create the folder: "),
                "\(line)")
        #expect(outcome.decoder != nil)
    }

    @Test func aCalibrationWithOneClassOnlyIsReportedAndFitsNoModel() {
        var session = VirtualSession(settings: Self.simulated(.target))
        session.mode("Calibration.supervised")
        for _ in 0..<3 { session.trial(seconds: 1, cued: 2) }
        // Every trial cued object 2: one class.
        session.mode("idle")
        session.wait(200)
        #expect(session.decoder.model == nil)
        #expect(session.logs().contains { $0.contains("one class only") })
        #expect(!session.sent.contains { if case .certaintyThreshold = $0 { return true } else { return false } })
        let results = session.sent.compactMap { if case .calibrationResult(let r) = $0 { return r } else { return nil } }
        #expect(results.count == 1 && results.first?.fitted == false && results.first?.trials == 3)
        #expect(results.first?.summary.contains("one class only") == true && results.first?.accuracy.isNaN == true)
    }

    @Test func aCalibrationTrialStoppedEarlyIsLeftOutRatherThanCuttingEveryTrialToItsLength() {
        var session = VirtualSession(settings: Self.simulated(.target))
        session.mode("Calibration.supervised")
        for k in 0..<5 { session.trial(seconds: k == 2 ? 0.2 : 2, cued: k % 4 + 1) }
        session.mode("idle")
        session.wait(200)
        #expect(session.logs().contains("decoder: calibration trial 3 left out: 0.22 s of flicker, under half the others' 2.02 s (stopped early)"),
                "\(session.logs())")
        let results = session.sent.compactMap { if case .calibrationResult(let r) = $0 { return r } else { return nil } }
        #expect(results.count == 1 && results.first?.fitted == true && results.first?.trials == 4)
    }

    @Test func aCalibrationOfOneTrialSaysNoModelCame() {
        var session = VirtualSession(settings: Self.simulated(.target))
        session.mode("Calibration.supervised")
        session.trial(seconds: 1, cued: 2)
        session.mode("idle")
        session.wait(200)
        let results = session.sent.compactMap { if case .calibrationResult(let r) = $0 { return r } else { return nil } }
        #expect(results.count == 1 && results.first?.fitted == false && results.first?.trials == 1)
        #expect(results.first?.summary.contains("at least 2 are needed") == true)
    }

    @Test func badAcquisitionInputIsCountedAndLoggedAndNeverCrashes() {
        var session = VirtualSession(settings: DecoderServerSettings())
        session.send(.dataPacket(DataPacket(timestamp: 1, samples: [[1, 2]])))                       // before any header
        session.send(.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: [])))
        session.send(.dataPacket(DataPacket(timestamp: 100, samples: [[1, 2, 3]])))                  // 3 channels, header says 2
        session.send(.dataPacket(DataPacket(timestamp: 100, samples: [[.nan, 2], [1, .infinity]])))  // repaired
        session.send(.dataPacket(DataPacket(timestamp: 50, samples: [[1, 2]])))                      // went back
        session.wait(1_100)
        let problems = session.decoder.packetProblems
        #expect(problems[.dataBeforeHeader] == 1)
        #expect(problems[.channelCountMismatch] == 1)
        #expect(problems[.nonFiniteSample] == 2)
        #expect(problems[.timestampWentBack] == 1)
        let log = session.logs().filter { $0.contains("bad input") }.joined()
        #expect(log.contains("before any DATAHEADER") && log.contains("went back") && log.contains("channel count"))
        let qualities = session.sent.compactMap { if case .signalQuality(let q) = $0 { return q.quality } else { return nil } }
        #expect(!qualities.isEmpty)
        #expect(qualities.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 } })
    }
}
