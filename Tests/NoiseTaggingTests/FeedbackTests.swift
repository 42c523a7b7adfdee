import Testing
@testable import NoiseTagging

@Suite("Press feedback")
struct FeedbackTests {
    private func brainPress(_ mode: ClickFeedbackMode) throws -> EngineHarness {
        let h = try EngineHarness { try $0.set(value: .text(mode.rawValue), for: .clickFeedbackMode) }
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 2, perr: 0)
        h.run(for: 0.01)
        return h
    }

    @Test("NonselectedGray: every other control turns gray, the pressed one turns white")
    func nonselectedGray() throws {
        let h = try brainPress(.nonselectedGray)
        let gray = h.settings.colorFor(.colorButtonNotPressedFeedback)
        // Issue 10: the guide turns the pressed control white (it stayed as it was before).
        #expect(h.buttons[1].feedbackColor == .white)
        #expect([0, 2, 3].allSatisfy { h.buttons[$0].feedbackColor == gray })
    }

    @Test("RedBorder: the pressed control is red")
    func redBorder() throws {
        let h = try brainPress(.redBorder)
        #expect(h.buttons[1].feedbackColor == .red)
        #expect(h.buttons[0].feedbackColor == nil)
    }

    @Test("SelectedAnimates: the pressed control blinks, then goes back to normal")
    func animates() throws {
        let h = try brainPress(.selectedAnimates)
        var seen: Set<String> = []
        for _ in 0..<50 {
            h.run(for: 0.01)
            seen.insert(h.buttons[1].feedbackColor?.hex ?? "none")
        }
        #expect(seen == ["#FFFFFF", "none"])
        h.run(for: 1)
        #expect(h.buttons[1].feedbackColor == nil)
    }

    @Test("None: no colour changes, actions still run")
    func noneMode() throws {
        let h = try brainPress(.none)
        #expect(h.buttons.allSatisfy { $0.feedbackColor == nil })
        #expect(h.controller.isShowingFeedback)
    }

    @Test("touch feedback only changes the pressed control, and is shorter")
    func touchDiffers() throws {
        let h = try EngineHarness { try $0.set(value: .text("NonselectedGray"), for: .clickFeedbackMode) }
        h.start()
        h.run(until: 0.5)
        h.controller.touchPress(h.buttons[0])
        #expect(h.buttons[0].feedbackColor == .white)
        #expect(h.buttons[1...].allSatisfy { $0.feedbackColor == nil })
        h.run(for: 0.3)
        #expect(!h.controller.isShowingFeedback)
        #expect(h.kinds.contains(.feedbackStarted(mode: .nonselectedGray, source: .touch, duration: 0.3)))
    }

    @Test("trials are blocked during feedback")
    func blockedDuringFeedback() throws {
        let h = try EngineHarness {
            try $0.set(value: .double(3), for: .feedbackDuration)
            try $0.set(value: .double(0), for: .timeInBetweenTrials)
        }
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 1, perr: 0)
        let pressed = h.run(untilTrue: { !h.presses.isEmpty })!
        h.run(until: pressed + 2.99)
        #expect(h.trialStarts.count == 1)
        h.run(until: pressed + 3.0)
        #expect(h.trialStarts.count == 2)
    }

    @Test("click sound follows clickSoundOnPress and the control's playClickSoundOnPress")
    func clickSound() throws {
        let h = EngineHarness()
        h.buttons[0].noiseTagging.playClickSoundOnPress = false
        h.start()
        h.controller.touchPress(h.buttons[0])
        h.run(for: 2)
        h.controller.touchPress(h.buttons[1])
        h.run(for: 2)
        try h.settings.set(value: .bool(false), for: .clickSoundOnPress)
        h.controller.touchPress(h.buttons[2])
        let sounds = h.kinds.compactMap { if case .clickSound(let c) = $0 { return c } else { return nil } }
        #expect(sounds == ["b2"])
    }

    @Test("a touch during feedback, on a disabled or foreign control is refused")
    func touchRefusals() {
        let h = EngineHarness()
        h.start()
        h.buttons[3].noiseTagging.enabled = false
        h.controller.touchPress(h.buttons[3])
        h.controller.touchPress(NoiseTagButton(identifier: "foreign"))
        h.controller.touchPress(h.buttons[0])
        h.controller.touchPress(h.buttons[1])
        #expect(h.presses.map(\.control) == ["b1"])
        #expect(h.refusals.count == 3)
    }
}
