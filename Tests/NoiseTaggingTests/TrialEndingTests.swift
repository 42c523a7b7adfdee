import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Trial endings")
struct TrialEndingTests {
    @Test("ending 1: a confident brain prediction presses, sends SELECTION and shows feedback")
    func brainPress() {
        let h = EngineHarness()
        var pressed = 0
        h.delegate.assign = { [unowned h] _ in try? h.buttons[2].noiseTagging.addAction { pressed += 1 } }
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 3, perr: 0.05)
        h.run(for: 0.02)
        #expect(h.presses.count == 1)
        #expect(h.presses.first?.control == "b3")
        #expect(h.presses.first?.source == .brain)
        #expect(abs((h.presses.first?.certainty ?? 0) - 0.95) < 1e-6)
        #expect(h.trialEnds.last?.ending == .pressed(.brain))
        #expect(h.controller.isShowingFeedback)
        #expect(pressed == 1)
        #expect(h.link.sent.contains { if case .selection(let s) = $0 { return s.objID == 3 } else { return false } })
        #expect(h.kinds.contains(.clickSound(control: "b3")))
    }

    @Test("a prediction below the threshold presses nothing")
    func unsureNoPress() {
        let h = EngineHarness()
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 3, perr: 0.5)
        h.run(for: 1)
        #expect(h.presses.isEmpty)
        #expect(h.controller.trialInProgress)
    }

    @Test("predictions older than the trial's start are ignored")
    func stalePrediction() {
        let h = EngineHarness()
        h.start()
        h.run(until: 2)
        h.link.deliver(.predictedTargetProb(PredictedTargetProb(timestamp: -100, objID: 1, errorProbability: 0)))
        h.run(for: 0.5)
        #expect(h.presses.isEmpty)
    }

    @Test("a prediction stamped on another clock, minutes before the trial, is reported once, not dropped unheard")
    func predictionOnAnotherClock() {
        let h = EngineHarness()
        h.start()
        h.run(until: 200)
        let long = h.clock.utopiaTimestamp &- 150_000
        for _ in 0..<3 { h.link.deliver(.predictedTargetProb(PredictedTargetProb(timestamp: long, objID: 1, errorProbability: 0))) }
        h.run(for: 0.5)
        #expect(h.presses.isEmpty)
        let problems = h.kinds.compactMap { if case .decoderProblem(let text) = $0 { text } else { nil } }
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("PREDICTEDTARGETPROB ignored: stamped \(long) ms, ") == true)
        #expect(problems.first?.contains("a decoder stamps its predictions with the newest STIMULUSEVENT's timestamp") == true)
    }

    @Test("a distribution naming an object not on screen, or object 0 in Test, is ignored and reported as a P would be")
    func distributionsAreChecked() throws {
        for (ids, said) in [([UInt8(9), 3], "object 9 is not on screen in trial 1"), ([0, 3], "object 0 stands for the cued target")] {
            let h = try EngineHarness {
                try $0.set(value: .double(3), for: .maxTestTrialDuration)
                try $0.set(value: .bool(true), for: .disableNoClicks)
            }
            h.start()
            h.run(until: 1)
            h.link.deliver(.predictedTargetDist(PredictedTargetDist(timestamp: h.clock.utopiaTimestamp, objIDs: ids, probabilities: [0.9, 0.1])))
            h.run(until: 3)
            // The timeout presses nothing: the distribution was not kept (object 3 had been pressed at 0.1).
            #expect(h.presses.isEmpty)
            let problems = h.kinds.compactMap { if case .decoderProblem(let text) = $0 { text } else { nil } }
            #expect(problems.count == 1 && problems.first?.contains(said) == true, "\(problems)")
        }
    }

    @Test("ending 1 by touch: the trial ends pressed-touch")
    func touchPress() {
        let h = EngineHarness()
        h.buttons[1].frame = NoiseTagRect(x: 10, y: 0, width: 5, height: 5)
        h.start()
        h.run(until: 0.2)
        let hit = h.controller.touch(at: NoiseTagPoint(x: 12, y: 1))
        #expect(hit === h.buttons[1])
        #expect(h.presses.first?.source == .touch)
        #expect(h.trialEnds.last?.ending == .pressed(.touch))
        // A second touch while the feedback shows is refused: no control is returned as pressed.
        #expect(h.controller.touch(at: NoiseTagPoint(x: 12, y: 1)) == nil)
        #expect(h.controller.touchPress(h.buttons[1]) == false)
        #expect(h.presses.count == 1)
    }

    @Test("ending 2: the maximum duration gives 'no press' and respondToNoClick")
    func maxDurationNoPress() throws {
        let h = try EngineHarness { try $0.set(value: .double(3), for: .maxTestTrialDuration) }
        h.start()
        h.run(until: 2.99)
        #expect(h.trialEnds.isEmpty)
        h.run(until: 3.0)
        #expect(h.trialEnds.last?.ending == .noPress)
        #expect(h.delegate.noClicks == 1)
        #expect(h.presses.isEmpty)
        #expect(h.buttons.allSatisfy { $0.feedbackColor == h.settings.colorFor(.colorButtonNotPressedFeedback) })
        h.run(for: 1.0)
        #expect(h.buttons.allSatisfy { $0.feedbackColor == nil }, "no-press feedback ends after feedbackDuration")
    }

    @Test("disableNoClicks presses the most likely control when time runs out")
    func disableNoClicksOn() throws {
        let h = try EngineHarness {
            try $0.set(value: .double(3), for: .maxTestTrialDuration)
            try $0.set(value: .bool(true), for: .disableNoClicks)
        }
        h.start()
        h.run(until: 1)
        h.link.deliver(.predictedTargetDist(PredictedTargetDist(timestamp: h.clock.utopiaTimestamp,
                                                                objIDs: [1, 2, 3, 4], probabilities: [0.1, 0.2, 0.6, 0.1])))
        h.run(until: 3)
        #expect(h.presses.count == 1)
        #expect(h.presses.first?.control == "b3")
        #expect(h.presses.first?.source == .timeout)
        #expect(h.delegate.noClicks == 0)
    }

    @Test("without disableNoClicks the same situation gives no press")
    func disableNoClicksOff() throws {
        let h = try EngineHarness { try $0.set(value: .double(3), for: .maxTestTrialDuration) }
        h.start()
        h.run(until: 1)
        h.link.deliver(.predictedTargetDist(PredictedTargetDist(timestamp: h.clock.utopiaTimestamp,
                                                                objIDs: [1, 2, 3, 4], probabilities: [0.1, 0.2, 0.6, 0.1])))
        h.run(until: 3)
        #expect(h.presses.isEmpty)
        #expect(h.delegate.noClicks == 1)
    }

    @Test("disableMaxTestTrialDuration keeps the trial going")
    func noMaximum() throws {
        let h = try EngineHarness { try $0.set(value: .bool(true), for: .disableMaxTestTrialDuration) }
        h.start()
        h.run(until: 100, step: 0.1)
        #expect(h.trialEnds.isEmpty)
        #expect(h.controller.trialInProgress)
    }

    @Test("ending 3: trials off stops the trial without feedback")
    func trialsOff() {
        let h = EngineHarness()
        h.runIntoFirstTrial()
        h.controller.trialsAreRunning = false
        #expect(h.trialEnds.last?.ending == .stopped(.trialsOff))
        #expect(!h.controller.isShowingFeedback)
        #expect(h.delegate.stopped == 1)
        #expect(h.buttons.allSatisfy { !$0.isNoiseTagging })
    }

    @Test("minTrialDuration: no brain press before it, a press right when it passes")
    func minimumDuration() throws {
        let h = try EngineHarness { try $0.set(value: .double(2), for: .minTrialDuration) }
        h.start()
        h.run(until: 0.5)
        h.predict(objectID: 2, perr: 0.0)
        h.run(until: 1.99)
        #expect(h.presses.isEmpty)
        h.run(until: 2.0)
        #expect(h.presses.count == 1)
        #expect(h.events.first { if case .press = $0.kind { return true } else { return false } }?.time == 2.0)
    }

    @Test("an update during a trial stops it, and the next trial has the new actions")
    func updateDuringTrial() {
        let h = EngineHarness()
        var version = 1
        var ran: [Int] = []
        h.delegate.assign = { [unowned h] _ in
            let v = version
            try? h.buttons[0].noiseTagging.addAction { ran.append(v) }
        }
        h.runIntoFirstTrial()
        version = 2
        h.controller.updateControls()
        #expect(h.trialEnds.last?.ending == .stopped(.update))
        #expect(!h.controller.isShowingFeedback)
        h.run(until: 3)
        h.predict(objectID: 1, perr: 0)
        h.run(for: 0.05)
        #expect(ran == [2])
    }

    @Test("the set of flickering controls never changes during a trial")
    func snapshotDuringTrial() {
        let h = EngineHarness()
        h.runIntoFirstTrial()
        let started = h.trialStarts.first
        let extra = NoiseTagButton(identifier: "late")
        h.view.add(extra)
        h.run(for: 2)
        guard case .trialStarted(let start)? = started?.kind else { Issue.record("no trial"); return }
        #expect(start.controls == ["b1", "b2", "b3", "b4"])
        #expect(h.controller.trialInProgress)
        #expect(!extra.isNoiseTagging)
    }

    @Test("disabled and hidden controls cannot be pressed by brain")
    func disabledNotPressable() {
        let h = EngineHarness()
        h.start()
        h.run(until: 1.2)
        h.buttons[0].noiseTagging.enabled = false
        h.predict(objectID: 1, perr: 0)
        h.run(for: 0.5)
        #expect(h.presses.isEmpty)
    }

    @Test("a timeout press with disableNoClicks goes only to a control that can be pressed; otherwise no-press feedback")
    func timeoutPressOnlyToPressableControl() throws {
        for hide in [true, false] {
            let h = try EngineHarness {
                try $0.set(value: 3, for: .maxTestTrialDuration)
                try $0.set(value: true, for: .disableNoClicks)
            }
            h.start()
            h.run(until: 1)
            h.link.deliver(.predictedTargetDist(PredictedTargetDist(timestamp: h.clock.utopiaTimestamp,
                                                                    objIDs: [1, 2, 3, 4], probabilities: [0.1, 0.2, 0.6, 0.1])))
            h.run(until: 2)
            if hide { h.buttons[2].isHidden = true } else { h.buttons[2].noiseTagging.enabled = false }
            h.run(until: 3)
            #expect(h.presses.isEmpty, "b3 is \(hide ? "hidden" : "disabled")")
            #expect(h.trialEnds.first?.ending == .noPress)
            #expect(h.delegate.noClicks == 1)
        }
    }

    @Test("certainty thresholds compare at the decoder's precision: Perr 0.1 as float32 meets certaintyRequiredForPress 0.9")
    func certaintyAtFloatPrecision() throws {
        let h = try EngineHarness { try $0.set(value: 0.9, for: .certaintyRequiredForPress) }
        #expect(1 - Double(Float(0.1)) < 0.9, "the case the rule is about")
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 2, perr: 0.1)
        h.run(for: 0.02)
        #expect(h.presses.map(\.control) == ["b2"])
        #expect(h.presses.first?.source == .brain)
    }

    @Test("a certainty one float32 step below the threshold does not press")
    func certaintyJustBelow() throws {
        let h = try EngineHarness { try $0.set(value: 0.9, for: .certaintyRequiredForPress) }
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 2, perr: 1 - Float(0.9).nextDown)   // certainty one float32 step below 0.9
        h.run(for: 0.02)
        #expect(h.presses.isEmpty)
    }
}
