import Testing
import UtopiaProtocol
@testable import NoiseTagging

/// A button that calls back into the controller from its appearance hooks
/// before doing its own work, as app code may.
private final class CallingButton: NoiseTagButton {
    weak var controller: NoiseTagController?
    var onRunning: ((NoiseTagController) -> Void)?
    var onFeedback: ((NoiseTagController, NoiseTagColor?) -> Void)?

    override func noiseTaggingDidChange(isRunning: Bool) {
        if isRunning, let controller, let call = onRunning { onRunning = nil; call(controller) }
        super.noiseTaggingDidChange(isRunning: isRunning)
    }

    override func setFeedbackColor(_ color: NoiseTagColor?) {
        if let controller, let call = onFeedback { onFeedback = nil; call(controller, color) }
        super.setFeedbackColor(color)
    }
}

@Suite("Re-entrant app code")
struct ReentrancyTests {
    private func isFlickerPhase(_ kind: NoiseTagEvent.Kind) -> Bool {
        if case .trialPhase(_, .flicker) = kind { return true } else { return false }
    }

    private func stimulusEvents(_ h: EngineHarness) -> Int {
        h.link.sent.filter { if case .stimulusEvent = $0 { return true } else { return false } }.count
    }

    /// Checks what every callback path must leave: no trial, no control
    /// flickering or highlighted, no flicker frame sent.
    private func expectConsistent(_ h: EngineHarness, _ controls: [NoiseTagButton], _ comment: Comment) {
        #expect(!h.controller.trialInProgress, comment)
        #expect(controls.allSatisfy { !$0.isNoiseTagging && $0.flickerColor == nil }, comment)
        #expect(controls.allSatisfy { $0.feedbackColor == nil }, comment)
        #expect(stimulusEvents(h) == 0, comment)
    }

    /// Checks that exactly one trial ran and was stopped for `cause`, and
    /// that it left everything consistent (``expectConsistent(_:_:_:)``).
    private func expectStopped(_ h: EngineHarness, by cause: TrialEnding.StopCause, _ controls: [NoiseTagButton], _ comment: Comment,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(h.trialEnds.map(\.ending) == [.stopped(cause)], comment, sourceLocation: sourceLocation)
        expectConsistent(h, controls, comment)
    }

    /// A harness whose event observer, from inside its handler, calls
    /// `action` on the controller for each event `matches` picks.
    private func harness(observing matches: @escaping (NoiseTagEvent.Kind) -> Bool,
                         calls action: @escaping (NoiseTagController) -> Void) -> EngineHarness {
        let h = EngineHarness()
        h.controller.events.subscribe { [unowned h] event in
            if matches(event.kind) { action(h.controller) }
        }
        return h
    }

    /// A one-button harness in TrainCustom whose next two targets are a
    /// ``CallingButton``, added to the view and calling back into the controller.
    private func customTargetHarness() -> (EngineHarness, CallingButton) {
        let h = EngineHarness(buttons: 1)
        let target = CallingButton(identifier: "target")
        target.controller = h.controller
        h.view.add(target)
        h.delegate.customTargets = [target, target]
        h.controller.set(mode: .trainCustom)
        return (h, target)
    }

    @Test("observers that subscribe, unsubscribe and remove observers from inside their handlers: later calls see the change")
    func observersChangeTheObserversFromInside() {
        let h = EngineHarness()
        var late: [String] = []
        var frameToken: NoiseTagController.ObserverToken?
        var frames = 0
        var lateToken: NoiseTagEventStream.Token?
        h.controller.events.subscribe { [unowned h] event in
            switch event.kind {
            case .trialStarted(let start) where start.trial == 1:
                lateToken = h.controller.events.subscribe { late.append("\($0.kind)") }
                frameToken = h.controller.observeFrames { _ in frames += 1 }
            case .trialEnded:
                if let lateToken { h.controller.events.unsubscribe(lateToken) }
                if let frameToken { h.controller.removeObserver(frameToken) }
            default:
                break
            }
        }
        h.start()
        h.run(for: 20)
        #expect(!h.trialEnds.isEmpty)
        #expect(!late.isEmpty && frames > 0)
        let (lateCount, frameCount) = (late.count, frames)
        h.run(for: 5)
        #expect(late.count == lateCount && frames == frameCount, "removed from inside a handler, they are called no more")
    }

    @Test("an observer that turns trials off on trialStarted: no flicker phase begins, no control flickers")
    func observerStopsOnTrialStarted() {
        let h = harness(observing: { if case .trialStarted = $0 { return true } else { return false } },
                        calls: { $0.trialsAreRunning = false })
        h.start()
        h.run(for: 1)
        #expect(!h.kinds.contains(where: isFlickerPhase))
        expectStopped(h, by: .trialsOff, h.buttons, "observer on trialStarted")
    }

    @Test("an observer that blocks on the flicker phase: no control is left flickering")
    func observerBlocksOnFlickerPhase() {
        let h = harness(observing: isFlickerPhase, calls: { $0.blockTrials() })
        h.start()
        h.run(for: 1)
        expectStopped(h, by: .blocked, h.buttons, "observer on the flicker phase")
    }

    @Test("a control whose noiseTaggingDidChange blocks trials: it and the controls after it end not flickering")
    func controlBlocksWhenFlickerStarts() {
        let h = EngineHarness(buttons: 1)
        let first = CallingButton(identifier: "first"), last = CallingButton(identifier: "last")
        first.controller = h.controller
        first.onRunning = { $0.blockTrials() }
        h.view.add(first)
        h.view.add(last)
        h.start()
        h.run(for: 1)
        expectStopped(h, by: .blocked, h.buttons + [first, last], "control's noiseTaggingDidChange")
        h.controller.unblockTrials()
        h.run(for: 1.1)
        #expect(h.controller.currentPhase == .flicker, "trials run normally once unblocked")
        #expect(first.isNoiseTagging && last.isNoiseTagging)
    }

    @Test("an observer that turns trials off on the cue phase: the training target is not left highlighted")
    func observerStopsOnCue() {
        let h = harness(observing: { if case .trialPhase(_, .cue) = $0 { return true } else { return false } },
                        calls: { $0.trialsAreRunning = false })
        h.start(in: .trainGeneric)
        h.run(for: 3)
        expectStopped(h, by: .trialsOff, h.buttons, "observer on the cue phase")
    }

    @Test("a target whose cue colour call blocks trials is not left highlighted")
    func targetBlocksOnCue() {
        let (h, target) = customTargetHarness()
        target.onFeedback = { controller, _ in controller.blockTrials() }
        h.start()
        h.run(for: 3)
        expectStopped(h, by: .blocked, h.buttons + [target], "target's setFeedbackColor")
    }

    @Test("a target that turns trials off when its cue ends: no pause or flicker phase follows")
    func targetStopsWhenCueEnds() {
        let (h, target) = customTargetHarness()
        h.start()
        target.onFeedback = { controller, color in if color == nil { controller.trialsAreRunning = false } }
        h.run(for: 3)
        #expect(!h.kinds.contains { if case .trialPhase(_, .pause) = $0 { return true } else { return false } })
        #expect(!h.kinds.contains(where: isFlickerPhase))
        expectStopped(h, by: .trialsOff, h.buttons + [target], "target's end-of-cue call")
    }

    @Test("a delegate that blocks and turns trials off during an update: the update ends, trials stay off and blocked")
    func delegateCallsDuringUpdate() {
        let h = EngineHarness()
        h.runIntoFirstTrial()
        h.delegate.assign = { [unowned h] _ in
            h.controller.blockTrials()
            h.controller.trialsAreRunning = false
        }
        h.controller.updateControls()
        #expect(!h.controller.isUpdating)
        let updateBlocks = h.kinds.filter { $0 == .blocked(reason: .update, duration: nil) }.count
        #expect(updateBlocks == h.kinds.filter { $0 == .unblocked(reason: .update) }.count, "the update's own block is gone")
        #expect(h.controller.trialsAreBlocked)
        h.link.clearSent()
        h.delegate.assign = { _ in }
        h.controller.trialsAreRunning = true
        h.run(for: 3)
        expectConsistent(h, h.buttons, "delegate in an update")
        h.controller.unblockTrials()
        h.run(for: 0.1)
        #expect(h.controller.trialInProgress)
    }

    @Test("a control that turns trials off while its flicker colour is painted: the controls painted after it keep no bit colour")
    func controlStopsWhilePainted() throws {
        final class StoppingButton: NoiseTagButton {
            weak var controller: NoiseTagController?
            override func setFlickerColor(_ color: NoiseTagColor) {
                super.setFlickerColor(color)
                controller?.trialsAreRunning = false
            }
        }
        let h = try EngineHarness(buttons: 1) { try $0.set(value: true, for: .disableMaxTestTrialDuration) }
        let stopper = StoppingButton(identifier: "stopper"), after = NoiseTagButton(identifier: "after")
        stopper.controller = h.controller
        h.view.add(stopper)
        h.view.add(after)
        h.start()
        h.run(for: 0.5)
        expectStopped(h, by: .trialsOff, h.buttons + [stopper, after], "control's setFlickerColor")
    }
}
