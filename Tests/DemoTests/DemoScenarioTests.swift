import DecoderService
import Decoding
import NoiseTagging
import Testing
import UtopiaProtocol
@testable import Demo

/// The demo's walk-through on the real engine and a virtual clock, with a
/// scripted decoder on the in-memory link that reads the simulated user's gaze.
@Suite("Demo scenario")
struct DemoScenarioTests {
    @Test("Signal check, calibration, fit, results, then the goal is brain-typed and confirmed on a popup")
    func wholeWalkThrough() throws {
        let rig = try DemoRig(goal: "HI")
        rig.scenario.start()
        #expect(rig.controller.mode == .signalQuality)
        #expect(rig.controller.unitCount == 1)
        #expect(rig.run(seconds: 3) { rig.scenario.stage == .calibration })
        #expect(rig.controller.mode == .trainGeneric)
        #expect(rig.run(seconds: 60) { if case .fitting = rig.scenario.stage { return true }; return false })
        #expect(rig.controller.mode == .test)
        #expect(rig.events.filter { if case .trialEnded(let e) = $0.kind { return e.mode == .trainGeneric && e.ending == .completed }; return false }.count == 5)
        #expect(rig.run(seconds: 5) { if case .results = rig.scenario.stage { return true }; return false })
        #expect(rig.controller.settings.doubleFor(.certaintyRequiredForPress) == Double(Float(0.99)))
        #expect(rig.run(seconds: 3) { rig.scenario.stage == .spelling })
        #expect(rig.run(seconds: 60) { if case .confirming = rig.scenario.stage { return true }; return false })
        #expect(rig.keyboard.typed == "HI")
        #expect(rig.controller.unitCount == 2)
        #expect(rig.controller.trialsAreBlocked, "trials wait while the popup slides in")
        #expect(rig.run(seconds: 30) { rig.scenario.stage == .finished })
        #expect(rig.controller.unitCount == 1)
        #expect(!rig.events.contains { if case .trialEnded(let end) = $0.kind { return end.ending == .stopped(.update) }; return false },
                "pushing and popping the popup never cuts a trial short")
        let summary = rig.scenario.summary(missedFrames: 0)
        #expect(summary.calibrationAccuracy == Double(Float(0.9)))
        #expect(summary.thresholdFromDecoder)
        #expect(summary.brainPresses == 3)
        #expect(summary.correctPresses == 3 && summary.judgedPresses == 3)
        #expect(summary.sent == "HI")
        #expect(summary.meanSelectionTime.map { $0 >= 0.8 && $0 < 2 } == true)
        let pushes = rig.events.compactMap { if case .unitPushed(let depth, _) = $0.kind { return depth }; return nil }
        let pops = rig.events.compactMap { if case .unitPopped(let depth, _) = $0.kind { return depth }; return nil }
        #expect(pushes == [1, 2] && pops == [1])
    }

    @Test("A walk-through stopped before its fit reports the certainty setting in force, not zero")
    func summaryBeforeTheFitGivesTheSetting() throws {
        let rig = try DemoRig(goal: "HI")
        rig.scenario.start()
        #expect(rig.run(seconds: 3) { rig.scenario.stage == .calibration })
        let summary = rig.scenario.summary(missedFrames: 0)
        #expect(summary.threshold == rig.controller.settings.doubleFor(.certaintyRequiredForPress))
        #expect(summary.threshold > 0 && !summary.thresholdFromDecoder)
        #expect(summary.lines.contains("certainty required for a press: \(CertaintyText.format(summary.threshold)) (setting)"))
    }

    @Test("A decoder that says no model came ends the wait for one at once, without parsing its log")
    func failedFitEndsTheWait() throws {
        let rig = try DemoRig(goal: "HI")
        rig.decoder.failsToFit = true
        rig.scenario.start()
        #expect(rig.run(seconds: 60) { if case .fitting = rig.scenario.stage { return true }; return false })
        // Well inside the scenario's 120 s fit timeout, the walk-through has moved on and says why.
        #expect(rig.run(seconds: 5) { if case .fitting = rig.scenario.stage { return false }; return true })
        #expect(rig.scenario.notices.contains { $0.contains("the decoder fitted no model") }, "\(rig.scenario.notices)")
        #expect(rig.scenario.reports.calibrationFailed && rig.scenario.reports.calibrationAccuracy == nil)
    }

    @Test("A misread letter is deleted by the simulated user and counted as a wrong press")
    func misreadIsCorrected() throws {
        let rig = try DemoRig(goal: "HI")
        rig.decoder.misreads = [1: 24]            // the second prediction trial reads X
        rig.scenario.start()
        #expect(rig.run(seconds: 200) { rig.scenario.stage == .finished })
        #expect(rig.keyboard.keystrokes == ["H", "X", "del", "I"])
        let summary = rig.scenario.summary(missedFrames: 0)
        #expect(summary.judgedPresses == 5 && summary.correctPresses == 4)
        #expect(summary.sent == "HI")
        #expect(!summary.reachedAccuracy(0.9))
    }

    @Test("No on the popup closes it and it does not come back until the text changes")
    func declinedPopup() throws {
        let rig = try DemoRig(goal: "A")
        rig.decoder.misreads = [1: 32]            // the popup's first trial reads No
        rig.scenario.start()
        #expect(rig.run(seconds: 200) { rig.scenario.stage == .spelling && rig.events.contains { if case .unitPopped = $0.kind { return true }; return false } })
        #expect(rig.controller.unitCount == 1)
        #expect(rig.scenario.popup == nil)
        rig.run(seconds: 10)
        #expect(rig.scenario.popup == nil, "the text did not change, so no second popup")
        // The simulated user is done spelling "A" and looks at nothing; a touch on delete then A brings the popup back.
        rig.controller.touchPress(rig.keyboard.deleteKey)
        #expect(rig.run(seconds: 10) { rig.keyboard.typed.isEmpty })
        #expect(rig.run(seconds: 30) { rig.scenario.popup != nil })
    }

    @Test("Enter skips the signal check; recalibration clears the text and calibrates again")
    func skipAndRecalibrate() throws {
        let rig = try DemoRig(goal: "HELLO")
        rig.scenario.start()
        rig.run(seconds: 0.1)
        rig.scenario.skipWaiting()
        #expect(rig.scenario.stage == .calibration)
        #expect(rig.run(seconds: 100) { rig.keyboard.typed == "HE" })
        rig.decoder.link.clearSent()
        rig.scenario.recalibrate()
        #expect(rig.scenario.stage == .calibration)
        #expect(rig.keyboard.typed == "")
        #expect(rig.decoder.link.sent.contains { if case .modeChange(let change) = $0 { return change.newMode == "reset" }; return false })
        #expect(rig.scenario.calibrationTrialsStarted == 0)
        #expect(rig.run(seconds: 100) { rig.scenario.stage == .spelling })
        #expect(rig.scenario.calibrationTrialsStarted == 5, "the engine runs nGenericTrainTrials again")
        #expect(rig.decoder.fits == 2)
    }

    @Test("Without a simulated user nobody's intention is known and no press is judged")
    func personAsUser() throws {
        let rig = try DemoRig(goal: "A", simulatedUser: false)
        rig.scenario.start()
        #expect(rig.run(seconds: 100) { rig.scenario.stage == .spelling })
        rig.controller.touchPress(rig.keyboard.key(forTouch: UInt8(ascii: "A"))!)
        #expect(rig.run(seconds: 10) { rig.scenario.popup != nil })
        rig.run(seconds: 1)
        rig.controller.touchPress(rig.scenario.popup!.button(forTouch: UInt8(ascii: "Y"))!)
        #expect(rig.run(seconds: 10) { rig.scenario.stage == .finished })
        let summary = rig.scenario.summary(missedFrames: 0)
        #expect(summary.touchPresses == 2 && summary.judgedPresses == 0 && summary.sent == "A")
    }
}
