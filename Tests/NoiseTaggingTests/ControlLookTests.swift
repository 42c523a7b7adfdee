import Testing
@testable import NoiseTagging

/// A control of the app's own type that implements only `setFlickerColor`,
/// logging every colour it is given.
private final class PlainLamp: NoiseTagControl {
    let noiseTagging: NoiseTagControlProperties
    var painted: [NoiseTagColor] = []
    var shown: NoiseTagColor? { painted.last }
    init(_ identifier: String) { noiseTagging = NoiseTagControlProperties(identifier: identifier) }
    func setFlickerColor(_ color: NoiseTagColor) { painted.append(color) }
}

/// A delegate with its own background colour for the unit's view.
private final class TintedDelegate: NoiseTagDelegate {
    var background: NoiseTagColor?
    var asked = 0
    func customBackgroundColorFor(noiseTaggingView view: NoiseTagView) -> NoiseTagColor? {
        asked += 1
        return background
    }
}

@Suite("Control look")
struct ControlLookTests {
    @Test("a control that implements only setFlickerColor shows the default look when flickering stops, never a stale bit colour")
    func defaultLookAfterFlicker() throws {
        let h = try EngineHarness(buttons: 1) { try $0.set(value: 2, for: .maxTestTrialDuration) }
        let lamp = PlainLamp("lamp")
        h.view.add(lamp)
        let enabled = h.settings.colorFor(.defaultColorButtonEnabled)
        h.start()
        h.run(until: 1)
        #expect(lamp.painted.contains(StimulusPalette(settings: h.settings).bitOn))
        h.controller.blockTrials()
        #expect(lamp.shown == enabled)
        #expect(lamp.noiseTagging.defaultColor == enabled)
    }

    @Test("setFeedbackColor's default forwards to setFlickerColor: the cued target shows the cue colour, then its default look")
    func cueThroughFlickerColor() throws {
        let h = EngineHarness(buttons: 1)
        let lamp = PlainLamp("lamp")
        h.view.add(lamp)
        h.delegate.customTargets = [lamp, lamp]
        h.start(in: .trainCustom)
        #expect(lamp.shown == h.settings.colorFor(.colorTargetCue))
        h.run(for: h.settings.doubleFor(.cueDuration) + 0.01)
        #expect(lamp.shown == h.settings.colorFor(.defaultColorButtonEnabled))
    }

    @Test("no-press and press feedback reach a plain control, and nil brings back the default look")
    func feedbackThroughFlickerColor() throws {
        let h = try EngineHarness(buttons: 1) {
            try $0.set(value: "NonselectedGray", for: .clickFeedbackMode)
            try $0.set(value: 1, for: .maxTestTrialDuration)
            try $0.set(value: 5, for: .timeInBetweenTrials)
        }
        let lamp = PlainLamp("lamp")
        h.view.add(lamp)
        h.start()
        h.run(for: 1.01)
        #expect(h.delegate.noClicks == 1)
        #expect(lamp.shown == h.settings.colorFor(.colorButtonNotPressedFeedback))
        h.run(for: 1)
        #expect(!h.controller.isShowingFeedback)
        #expect(lamp.shown == h.settings.colorFor(.defaultColorButtonEnabled))
    }

    @Test("a disabled control's default look is defaultColorButtonDisabled")
    func disabledLook() throws {
        let h = EngineHarness(buttons: 1)
        let lamp = PlainLamp("lamp")
        lamp.noiseTagging.enabled = false
        h.view.add(lamp)
        h.start()
        #expect(h.controller.currentPhase == .flicker)
        #expect(lamp.shown == h.settings.colorFor(.defaultColorButtonDisabled))
    }

    @Test("customBackgroundColorFor is asked and used instead of defaultColorButtonEnabled; a control's own colour comes first")
    func customBackground() throws {
        let h = EngineHarness(buttons: 2)
        let delegate = TintedDelegate()
        let teal = NoiseTagColor(hex: "#008080")!, plum = NoiseTagColor(hex: "#8E4585")!
        delegate.background = teal
        h.buttons[1].customBackgroundColor = plum
        let lamp = PlainLamp("lamp")
        lamp.noiseTagging.participatesInFlickering = false
        h.view.add(lamp)
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: delegate)
        h.controller.trialsAreRunning = true
        h.controller.tick()
        #expect(delegate.asked > 0)
        #expect(lamp.shown == teal, "a control that does not flicker shows the unit's background")
        h.controller.blockTrials()
        #expect(h.buttons[0].noiseTagging.defaultColor == teal)
        #expect(h.buttons[1].noiseTagging.defaultColor == plum)
    }

    @Test("a touch press on a plain control shows the highlight and then its default look again")
    func touchOnPlainControl() throws {
        let h = try EngineHarness(buttons: 1) {
            try $0.set(value: "NonselectedGray", for: .clickFeedbackMode)
            try $0.set(value: 5, for: .timeInBetweenTrials)
        }
        let lamp = PlainLamp("lamp")
        h.view.add(lamp)
        h.start()
        h.controller.touchPress(lamp)
        #expect(lamp.shown == .white)
        h.run(for: 1)
        #expect(lamp.shown == h.settings.colorFor(.defaultColorButtonEnabled))
    }

    @Test("every update works out the default look again, so a renderer draws it between trials")
    func defaultLookAtUpdate() {
        let h = EngineHarness(buttons: 2)
        let delegate = TintedDelegate()
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: delegate)
        #expect(h.buttons.allSatisfy { $0.noiseTagging.defaultColor == h.settings.colorFor(.defaultColorButtonEnabled) })
        delegate.background = .white
        h.buttons[1].noiseTagging.enabled = false
        h.controller.updateControls()
        #expect(h.buttons[0].noiseTagging.defaultColor == .white)
        #expect(h.buttons[1].noiseTagging.defaultColor == h.settings.colorFor(.defaultColorButtonDisabled))
    }
}
