import DecoderService
import Decoding
import Dispatch
import Foundation
import Testing
import UtopiaProtocol
import ZeroMQTransport
#if canImport(Simulation)
import Simulation
import TestSupport
#endif

/// `RecordingPlayback` on its own (virtual time: what it sends, when it
/// waits, how it counts presses) and through `RecordingPlayer` against an
/// in-process `DecoderServer` on a simulated dataset.
@Suite(.serialized) struct RecordingPlaybackTests {
    /// A small dataset of cut trials: 3 classes, 200 Hz, 1 s trials, a ramp as EEG.
    static func tiny(trials: Int = 4) throws -> TrialsDataset {
        let n = 200, channels = 2, classes = 3
        let data = (0..<(trials * channels * n)).map { Float($0 % n) + Float($0 / n) * 1000 }
        let stimulus = (0..<(classes * n)).map { UInt8((($0 % n) / 10 + $0 / n) % 2) }
        return try TrialsDataset(header: DatasetHeader(fs: 200, nTrials: trials, nChannels: channels, nSamples: n, nClasses: classes),
                                 data: data, labels: (0..<trials).map { Int32($0 % classes) }, stimulus: stimulus)
    }

    /// Advances `playback` in 10 ms steps for `milliseconds`, collecting what it sends.
    static func run(_ playback: inout RecordingPlayback, from now: inout Double, for milliseconds: Double) throws -> [UtopiaMessage] {
        var out: [UtopiaMessage] = []
        let end = now + milliseconds
        while now < end, !playback.isFinished {
            now += 10
            out += try playback.advance(now: now)
        }
        return out
    }

    @Test func itCalibratesWithTheCuedTargetWaitsForTheFitThenPredictsWithoutIt() throws {
        var settings = PlaybackSettings()
        settings.speed = 4
        var playback = try RecordingPlayback(dataset: Self.tiny(), settings: settings)
        var now = 1_000_000.0
        let opening = playback.start(now: now)
        #expect(opening.count == 2)
        guard case .dataHeader(let header) = opening.last else { Issue.record("no DATAHEADER"); return }
        #expect(header.channelCount == 2 && header.sampleRate == 200)
        var sent = try Self.run(&playback, from: &now, for: 5_000)
        let modes = sent.compactMap { if case .modeChange(let m) = $0 { return m.newMode } else { return nil } }
        #expect(modes == ["Calibration.supervised", "Prediction.static"])
        #expect(playback.report.calibrationTrials == [1, 2])
        let events = sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }
        #expect(events.count == 2 * 60)                       // two 1 s calibration trials at 60 Hz
        #expect(events.allSatisfy { $0.objIDs == [0, 1, 2, 3] })
        #expect(events[..<60].allSatisfy { $0.objStates[0] == $0.objStates[1] })     // trial 1 cued class 0
        #expect(events[60...].allSatisfy { $0.objStates[0] == $0.objStates[2] })     // trial 2 cued class 1
        // Waiting for the fit: nothing more goes out, however long.
        let waiting = try Self.run(&playback, from: &now, for: 2_000)
        #expect(waiting.isEmpty)
        try playback.hear(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.75)), now: now)
        sent = try Self.run(&playback, from: &now, for: 400)
        let first = try #require(sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }.first)
        #expect(first.objIDs == [1, 2, 3])
        // A confident prediction of the target (trial 3: class 2, object 3) is a press.
        try playback.hear(.predictedTargetProb(PredictedTargetProb(timestamp: first.timestamp &+ 250, objID: 3, errorProbability: 0.05)), now: now)
        sent = try Self.run(&playback, from: &now, for: 5_000)
        #expect(sent.contains { if case .selection(let s) = $0 { return s.objID == 3 } else { return false } })
        #expect(playback.isFinished)
        let report = playback.report
        #expect(report.predictionTrials.map(\.trial) == [3, 4])
        #expect(report.predictionTrials[0].pressed == 3 && report.predictionTrials[0].seconds == 0.25)
        #expect(report.predictionTrials[1].pressed == nil)
        #expect(report.presses == 1 && report.correct == 1 && report.accuracy == 1 && report.withoutPress == 1)
        #expect(report.certainty == 0.75 && report.certaintySource == "decoder")
    }

    /// As the engine holds a trial to the threshold in force at its first
    /// prediction, a refit's threshold that arrives after it counts from the
    /// next trial.
    @Test func aThresholdArrivingAfterATrialsFirstPredictionCountsFromTheNextTrial() throws {
        var settings = PlaybackSettings()
        settings.speed = 4
        var playback = try RecordingPlayback(dataset: Self.tiny(), settings: settings)
        var now = 1_000_000.0
        _ = playback.start(now: now)
        _ = try Self.run(&playback, from: &now, for: 5_000)
        try playback.hear(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.75)), now: now)
        var sent = try Self.run(&playback, from: &now, for: 400)
        let third = try #require(sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }.first)
        func predict(_ stamp: Int32, perr: Float) throws {
            try playback.hear(.predictedTargetProb(PredictedTargetProb(timestamp: stamp, objID: 3, errorProbability: perr)), now: now)
        }
        try predict(third.timestamp &+ 100, perr: 0.5)
        try playback.hear(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.95)), now: now)
        try predict(third.timestamp &+ 200, perr: 0.1)
        sent += try Self.run(&playback, from: &now, for: 5_000)
        let events: [StimulusEvent] = sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }
            .filter { $0.objIDs == [1, 2, 3] }
        #expect(events.count == 120)
        let fourth = events[60].timestamp
        try predict(fourth &+ 100, perr: 0.1)
        try predict(fourth &+ 200, perr: 0.03)
        let rows = playback.report.predictionTrials
        #expect(rows.map(\.trial) == [3, 4])
        #expect(rows[0].pressed == 3 && rows[0].seconds == 0.2, "0.9 reaches the 0.75 in force at trial 3's first prediction")
        #expect(rows[1].pressed == 3 && rows[1].seconds == 0.2, "trial 4 is held to 0.95")
    }

    @Test func cutTrialsAreJoinedByMirroredRestsSoTheSignalIsContinuousAtEveryTrialEdge() throws {
        var playback = try RecordingPlayback(dataset: Self.tiny(trials: 3), settings: PlaybackSettings())
        var now = 0.0
        _ = playback.start(now: now)
        var sent = try Self.run(&playback, from: &now, for: 5_000)
        try playback.hear(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.75)), now: now)
        sent += try Self.run(&playback, from: &now, for: 20_000)
        #expect(playback.isFinished)
        let packets = sent.compactMap { if case .dataPacket(let p) = $0 { return p } else { return nil } }
        let channel0 = packets.flatMap { $0.samples.map { $0[0] } }
        #expect(channel0.count == 200 + 3 * 200 + 2 * 200 + 100)   // a 1 s rest before each trial, 0.5 s after the last
        // Trial t, channel 0, is t·2000 + 0…199; a rest mirrors the trial edges beside it, so no step exceeds one sample's.
        for (a, b) in zip(channel0, channel0.dropFirst()) where abs(b - a) > 1 {
            #expect(abs(b - a) > 1000, "one jump per rest, in its middle, between two trials' levels")
        }
        #expect(Array(channel0[199...201]) == [1, 0, 1])           // the first trial's start, mirrored then played
    }

    @Test func tooFewTrialsOrABadCalibrationCountAreRefusedInOneLine() throws {
        #expect(throws: PlaybackError.self) { _ = try RecordingPlayback(dataset: Self.tiny(trials: 2), settings: PlaybackSettings()) }
        var settings = PlaybackSettings()
        settings.calibrationTrials = 4
        do {
            _ = try RecordingPlayback(dataset: Self.tiny(trials: 4), settings: settings)
            Issue.record("4 of 4 trials calibrating was accepted")
        } catch {
            #expect("\(error)".contains("calibrate on 2…3"))
        }
        #expect(PlaybackSettings.defaultCalibrationTrials(of: 10) == 5)
        #expect(PlaybackSettings.defaultCalibrationTrials(of: 3) == 2)
    }

    @Test(.tags(.sockets, .realTime), .outsideWorld) func noDecoderAtTheEndpointIsOneLineWithinTheBoundedWait() throws {
        var playback = try RecordingPlayback(dataset: Self.tiny(), settings: PlaybackSettings())
        let started = Date()
        do {
            _ = try RecordingPlayer.run(&playback, endpoint: "inproc://nobody-here", context: ZeroMQContext(), connectTimeout: 0.5)
            Issue.record("played without a decoder")
        } catch {
            #expect(error == .noDecoder(endpoint: "inproc://nobody-here", seconds: 0.5))
        }
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test(.tags(.sockets, .realTime), .outsideWorld) func aDecoderThatStopsMidwayIsReported() throws {
        let context = ZeroMQContext()
        let server = try DecoderServer(endpoint: "inproc://stream-dies", settings: DecoderServerSettings(), context: context)
        var playback = try RecordingPlayback(dataset: Self.tiny(trials: 6), settings: PlaybackSettings())
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { server.stop() }
        do {
            _ = try RecordingPlayer.run(&playback, endpoint: "inproc://stream-dies", context: context, silenceTimeout: 1.5)
            Issue.record("the playback finished without its decoder")
        } catch {
            #expect(error == .decoderGone(endpoint: "inproc://stream-dies", seconds: 1.5))
        }
    }

    @Test(.tags(.sockets, .realTime), .outsideWorld) func aSimulatedSessionPlayedIntoTheDecoderIsCalibratedAndPressedCorrectly() throws {
        let dataset = try DatasetSimulation(classes: 4, trials: 12, seed: 4).record()
        let context = ZeroMQContext()
        var decoderSettings = DecoderServerSettings()
        decoderSettings.predictionInterval = 0.01
        let server = try DecoderServer(endpoint: "inproc://stream-simulated", settings: decoderSettings, context: context)
        defer { server.stop() }
        var settings = PlaybackSettings()
        settings.speed = 10
        settings.certainty = 0.9          // six calibration trials recommend a cautious threshold; the override is what is tested
        var playback = try RecordingPlayback(dataset: dataset, settings: settings)
        var lines: [String] = []
        let report = try RecordingPlayer.run(&playback, endpoint: "inproc://stream-simulated", context: context) { lines.append($0) }
        #expect(report.calibrationTrials == Array(1...6))
        #expect(report.predictionTrials.map(\.trial) == Array(7...12))
        #expect(report.calibrationLog.contains { $0.contains("cross-validated accuracy") }, "\(lines)")
        #expect(report.decoderThreshold != nil && report.certainty == 0.9 && report.certaintySource == "--certainty")
        #expect(report.presses >= 4, "\(lines)")
        #expect((report.accuracy ?? 0) >= 0.8, "\(lines)")
        #expect(report.predictionTrials.allSatisfy { $0.predictions > 0 })
        #expect(report.meanSelectionSeconds.map { $0 > 0 && $0 <= 4.2 } ?? false)
    }
}
