import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Modes")
struct ModeTests {
    @Test("TrainGeneric: cue, pause, flicker for N trials, then Test")
    func trainingThenTest() throws {
        let h = try EngineHarness.genericTraining(trials: 3, seconds: 2)
        h.start(in: .trainGeneric)
        h.run(until: 30)
        let training = h.trialEnds.filter { $0.mode == .trainGeneric }
        #expect(training.count == 3)
        #expect(training.allSatisfy { $0.ending == .completed && $0.target != nil })
        #expect(Set(training.compactMap(\.target)).count == 3, "balanced targets: no repeat before all are used")
        #expect(h.controller.mode == .test)
        #expect(h.delegate.modeChanges == [.trainGeneric, .test])
        #expect(h.settings.textFor(.mode) == "Test")
        let phases = h.kinds.compactMap { if case .trialPhase(1, let p) = $0 { return p } else { return nil } }
        #expect(phases == [.cue, .pause, .flicker])
        let modes = h.link.sent.compactMap { if case .modeChange(let m) = $0 { return m.newMode } else { return nil } }
        #expect(modes == ["Calibration.supervised", "Prediction.static"])
        #expect(h.presses.isEmpty, "no brain presses during training")
    }

    @Test("the cue phase highlights the target, and phases last their settings")
    func cueTiming() throws {
        let h = EngineHarness()
        h.start(in: .trainSimple)
        h.run(until: 0.01)
        guard case .trialStarted(let start)? = h.trialStarts.first?.kind, let target = start.target else {
            Issue.record("no cued trial"); return
        }
        let button = h.buttons.first { $0.noiseTagging.identifier == target }!
        #expect(button.feedbackColor == h.settings.colorFor(.colorTargetCue))
        h.run(until: 1.0 + 0.01)
        #expect(h.controller.currentPhase == .pause)
        #expect(button.feedbackColor == nil)
        h.run(until: 1.5 + 0.01)
        #expect(h.controller.currentPhase == .flicker)
        #expect(button.isNoiseTagging)
    }

    @Test("TrainCustom takes the delegate's targets, then switches to Test")
    func trainCustom() throws {
        let h = try EngineHarness { try $0.set(value: .double(1), for: .trialDurationGenericTrain) }
        h.delegate.customTargets = [h.buttons[3], h.buttons[0]]
        h.start(in: .trainCustom)
        h.run(until: 20)
        #expect(h.trialEnds.filter { $0.mode == .trainCustom }.map(\.target) == ["b4", "b1"])
        #expect(h.controller.mode == .test)
    }

    @Test("Verify cues a known target from the delegate's list and records it with the press")
    func verifyTarget() {
        let h = EngineHarness()
        h.delegate.verifyIDs = ["b2"]
        h.start(in: .verify)
        h.run(until: 3)
        h.predict(objectID: 2, perr: 0)
        h.run(for: 0.1)
        #expect(h.presses.first?.target == "b2")
        #expect(h.presses.first?.control == "b2")
        #expect(h.controller.mode == .verify)
    }

    @Test("a mode that needs a decoder, set with no link, says so; Test and a linked decoder do not")
    func aModeWithoutADecoderSaysSo() {
        let controller = NoiseTagController(clock: VirtualClock())
        var notices: [String] = []
        controller.events.subscribe { if case .notice(let text) = $0.kind { notices.append(text) } }
        controller.set(mode: .trainGeneric)
        #expect(notices.count == 1)
        #expect(notices.first?.hasPrefix("TrainGeneric needs a decoder, but none is linked (decoderLink is nil)") == true)
        controller.set(mode: .test)
        #expect(notices.count == 1)
        let linked = EngineHarness()
        linked.controller.set(mode: .zeroTrain)
        #expect(!linked.events.contains { if case .notice(let text) = $0.kind { text.contains("needs a decoder") } else { false } })
    }

    @Test("quality modes run no trials")
    func qualityModes() {
        let h = EngineHarness()
        h.start(in: .electrodeQuality)
        h.run(until: 5)
        #expect(h.trialStarts.isEmpty)
        #expect(h.link.sent.contains(.modeChange(ModeChange(timestamp: 0, newMode: "ElectrodeMeasurement"))))
    }

    @Test("ZeroTrain: stricter first press, N trials, then Test")
    func zeroTrain() throws {
        let h = try EngineHarness { try $0.set(value: .int(2), for: .nZeroTrainTrials) }
        h.start(in: .zeroTrain)
        h.run(until: 2)
        h.predict(objectID: 1, perr: 0.05)       // 0.95 < 0.99 for the first press
        h.run(for: 0.5)
        #expect(h.presses.isEmpty)
        h.predict(objectID: 1, perr: 0.001)
        h.run(for: 0.1)
        #expect(h.presses.count == 1)
        h.run(until: 6)
        h.predict(objectID: 2, perr: 0.05)       // 0.95 passes the normal 0.9 afterwards
        h.run(for: 0.1)
        #expect(h.presses.count == 2)
        #expect(h.controller.mode == .test)
    }

    @Test("a decoder's revision of an ended trial becomes an event naming the trial, the control and what was pressed")
    func selectionRevised() throws {
        let h = try EngineHarness { try $0.set(value: .int(5), for: .nZeroTrainTrials) }
        h.start(in: .zeroTrain)
        h.run(until: 2)
        h.predict(objectID: 1, perr: 0.001)
        h.run(for: 0.1)
        let pressed = try #require(h.presses.first)
        #expect(pressed.control == "b1")
        let stamp = try #require(h.link.sent.compactMap { if case .newTarget(let n) = $0 { return n.timestamp } else { return nil } }.first)
        h.link.deliver(.selectionRevised(SelectionRevised(timestamp: h.clock.utopiaTimestamp, trialStamp: stamp, objID: 3)))
        h.link.deliver(.selectionRevised(SelectionRevised(timestamp: h.clock.utopiaTimestamp, trialStamp: stamp &+ 12345, objID: 2)))
        h.link.deliver(.selectionRevised(SelectionRevised(timestamp: h.clock.utopiaTimestamp, trialStamp: stamp, objID: 99)))
        h.run(for: 0.1)
        let revisions = h.kinds.compactMap { if case .selectionRevised(let r) = $0 { return r } else { return nil } }
        #expect(revisions == [.init(trial: pressed.trial!, control: "b3", objectID: 3, pressed: "b1")],
                "an unknown trial or an object the trial did not show is ignored")
        let line = try #require(h.events.first { if case .selectionRevised = $0.kind { return true } else { return false } }?.jsonLine)
        #expect(line.contains("\"type\":\"selectionRevised\"") && line.contains("\"control\":\"b3\"") && line.contains("\"pressed\":\"b1\""))
    }

    @Test("DataCollection stops trials after nDataCollectionTrials")
    func dataCollection() throws {
        let h = try EngineHarness {
            try $0.set(value: .int(2), for: .nDataCollectionTrials)
            try $0.set(value: .double(1), for: .maxTestTrialDuration)
        }
        h.start(in: .dataCollection)
        h.run(until: 20)
        #expect(h.trialEnds.count == 2)
        #expect(!h.controller.trialsAreRunning)
    }

    @Test("waiting for the decoder's confirmation blocks trials until it echoes the mode")
    func confirmation() {
        let h = EngineHarness()
        h.controller.set(mode: .test, waitTillDecoderConfirms: true, withExplanation: "start")
        h.start()
        h.run(until: 1)
        #expect(h.trialStarts.isEmpty)
        h.link.deliver(.modeChange(ModeChange(timestamp: 0, newMode: "Prediction.static")))
        h.run(for: 0.05)
        #expect(h.kinds.contains(.modeConfirmed(mode: .test, confirmed: true)))
        #expect(h.trialStarts.count == 1)
    }

    @Test("without a confirmation the wait times out and says so")
    func confirmationTimeout() {
        EngineHarness().expectUnconfirmedTestModeWaits(2.0)
    }

    @Test("the decoder's threshold is adopted unless the user set one")
    func thresholdAdvice() throws {
        let h = EngineHarness()
        h.link.deliver(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.75)))
        h.controller.tick()
        #expect(abs(h.settings.doubleFor(.certaintyRequiredForPress) - 0.75) < 1e-6)
        try h.settings.set(value: .double(0.97), for: .certaintyRequiredForClick)
        h.link.deliver(.certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.6)))
        h.controller.tick()
        #expect(h.settings.doubleFor(.certaintyRequiredForPress) == 0.97)
    }

    @Test("the decoder's calibration result reaches the app as an event: a model or none, and why")
    func calibrationResultIsAnEvent() {
        let h = EngineHarness()
        h.link.deliver(.calibrationResult(CalibrationResult(timestamp: 0, fitted: true, trials: 10, accuracy: 0.9, seconds: 4,
                                                            summary: "refe, latency 0 ms + 0.30 s")))
        h.link.deliver(.calibrationResult(CalibrationResult(timestamp: 0, fitted: false, trials: 1, summary: "one class only")))
        h.controller.tick()
        #expect(h.kinds.contains(.decoderCalibration(.init(fitted: true, trials: 10, accuracy: 0.9, seconds: 4,
                                                            summary: "refe, latency 0 ms + 0.30 s"))))
        #expect(h.kinds.contains(.decoderCalibration(.init(fitted: false, trials: 1, accuracy: nil, seconds: nil,
                                                            summary: "one class only"))))
    }

    @Test("a threshold that arrives before a trial's first prediction holds for that trial; one after it, from the next trial")
    func thresholdBeforeFirstPrediction() throws {
        // The trial opens at the default 0.9 while the decoder's fit is on its way.
        let h = EngineHarness()
        h.runIntoFirstTrial()
        h.link.deliver(.certaintyThreshold(CertaintyThreshold(timestamp: h.clock.utopiaTimestamp, threshold: 0.99)))
        h.run(for: 1)
        h.predict(objectID: 3, perr: 0.05)
        h.run(for: 0.1)
        #expect(h.presses.isEmpty, "0.95 is below the 0.99 that came before the trial's first prediction")
        h.predict(objectID: 3, perr: 0.005)
        h.run(for: 0.05)
        #expect(h.presses.map(\.control) == ["b3"])

        // The next trial hears a prediction first: a threshold after it waits for the trial after.
        #expect(h.run(untilTrue: { h.controller.trialInProgress && h.controller.currentPhase == .flicker }) != nil)
        h.run(for: 1.2)
        h.predict(objectID: 2, perr: 0.5)
        h.run(for: 0.05)
        h.link.deliver(.certaintyThreshold(CertaintyThreshold(timestamp: h.clock.utopiaTimestamp, threshold: 0.9)))
        h.run(for: 0.05)
        h.predict(objectID: 2, perr: 0.05)
        h.run(for: 0.1)
        #expect(h.presses.count == 1, "this trial stays at 0.99")
        h.predict(objectID: 2, perr: 0.005)
        h.run(for: 0.05)
        #expect(h.presses.map(\.control) == ["b3", "b2"])
        #expect(h.run(untilTrue: { h.controller.trialInProgress && h.controller.currentPhase == .flicker }) != nil)
        h.run(for: 1.2)
        h.predict(objectID: 1, perr: 0.05)
        h.run(for: 0.05)
        #expect(h.presses.map(\.control) == ["b3", "b2", "b1"], "the trial after presses at 0.9")
    }

    @Test("setting the mode setting changes the mode too")
    func modeSetting() throws {
        let h = EngineHarness()
        try h.settings.set(value: .text("Verify"), for: .mode)
        #expect(h.controller.mode == .verify)
    }

    @Test("the mode has one owner: the setting and the controller never disagree, whichever way it changes")
    func modeOneOwner() throws {
        let h = EngineHarness()
        h.runIntoFirstTrial()
        try h.settings.set(value: .text("TrainGeneric"), for: .mode)
        #expect(h.controller.mode == .trainGeneric && !h.controller.trialInProgress)
        #expect(h.kinds.contains(.modeChanged(from: .test, to: .trainGeneric, explanation: "mode setting changed")))
        #expect(h.link.sent.last == .modeChange(ModeChange(timestamp: h.clock.utopiaTimestamp, newMode: NoiseTagMode.trainGeneric.decoderModeString)))
        h.controller.set(mode: .verify, withExplanation: "check")
        #expect(h.settings.textFor(.mode) == "Verify" && h.controller.mode == .verify)
        #expect(h.kinds.filter { if case .modeChanged = $0 { return true } else { return false } }.count == 2,
                "one modeChanged per change, not one for the call and one for the setting")
        h.settings.resetToDefault(.mode)
        #expect(h.controller.mode == .test)
        #expect(h.kinds.last(where: { if case .modeChanged = $0 { return true } else { return false } })
                == .modeChanged(from: .verify, to: .test, explanation: "mode setting changed"))
    }
}

@Suite("Decoder messages")
struct DecoderMessageTests {
    @Test("sendDecoderALogMessageWith sends a LOG with the text")
    func log() {
        let h = EngineHarness()
        h.clock.advance(to: 2.5)
        h.controller.sendDecoderALogMessageWith(text: "subject 12 starts")
        #expect(h.link.sent.last == .log(Log(timestamp: 2500, message: "subject 12 starts")))
    }

    @Test("trials off tells the decoder idle, trials on the current mode; reset discards calibration")
    func idleAndReset() {
        let h = EngineHarness()
        h.start()
        h.controller.trialsAreRunning = false
        h.controller.trialsAreRunning = true
        h.controller.resetDecoderCalibration()
        let modes = h.link.sent.compactMap { if case .modeChange(let m) = $0 { return m.newMode } else { return nil } }
        #expect(modes == ["idle", "Prediction.static", "reset"])
    }

    @Test("NEWTARGET at each trial start, SELECTION with the pressed object ID")
    func newTargetAndSelection() {
        let h = EngineHarness()
        h.start()
        #expect(h.link.sent.contains(.newTarget(NewTarget(timestamp: 0))))
        h.controller.touchPress(h.buttons[3])
        #expect(h.link.sent.contains(.selection(Selection(timestamp: 0, objID: 4))))
    }
}
