import Testing
@testable import NoiseTagging

@Suite("Unit stack")
struct UnitStackTests {
    @Test("push, update and pop each perform an update of the current unit")
    func stackUpdates() {
        let h = EngineHarness()
        let second = RecordingDelegate()
        let otherView = NoiseTagView()
        let other = NoiseTagButton(identifier: "other")
        otherView.add(other)
        second.assign = { _ in try? other.noiseTagging.addAction { } }
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.push(view: otherView, forNoiseTaggingWithDelegate: second)
        #expect(h.controller.unitCount == 2)
        #expect(second.updates == 1)
        #expect(other.noiseTagging.actions.count == 1)
        h.controller.pop()
        #expect(h.controller.unitCount == 1)
        #expect(h.delegate.updates == 2)
        #expect(other.noiseTagging.actions.isEmpty, "popping deletes the popped unit's actions")
        #expect(h.controller.currentView === h.view)
    }

    @Test("update with a view that is not the current unit's changes nothing and says why")
    func updateWrongView() {
        let h = EngineHarness()
        h.start()
        h.run(until: 0.5)
        let stranger = RecordingDelegate()
        h.controller.update(view: NoiseTagView(), forNoiseTaggingWithDelegate: stranger)
        #expect(stranger.updates == 0)
        #expect(h.controller.trialInProgress, "the running trial goes on")
        #expect(h.refusals.contains { $0.contains("not the current unit's view") })
    }

    @Test("update with the current view swaps the delegate")
    func updateCurrentView() {
        let h = EngineHarness()
        h.start()
        let replacement = RecordingDelegate()
        h.controller.update(view: h.view, forNoiseTaggingWithDelegate: replacement)
        #expect(replacement.updates == 1)
        #expect(h.kinds.contains { if case .unitUpdated = $0 { return true } else { return false } })
    }

    @Test("pop on an empty stack changes nothing and says why")
    func popEmpty() {
        let h = EngineHarness()
        h.controller.pop()
        #expect(h.controller.unitCount == 0)
        #expect(h.refusals == ["pop ignored: the unit stack is empty"])
    }

    @Test("a stack change from inside an update is refused, naming the call, and the update finishes once")
    func stackChangeInsideUpdate() {
        let h = EngineHarness()
        let inner = NoiseTagView()
        h.delegate.assign = { [unowned h] _ in
            h.controller.updateControls()             // would start this update again, without end
            h.controller.push(view: inner, forNoiseTaggingWithDelegate: RecordingDelegate())
            h.controller.pop()
        }
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        #expect(h.delegate.updates == 1)
        #expect(h.controller.unitCount == 1)
        let refused = h.events.compactMap { if case .refused(let call, _) = $0.kind { return call } else { return nil } }
        #expect(refused == ["updateControls(updateCode:)", "push(view:forNoiseTaggingWithDelegate:)", "pop()"])
        #expect(h.refusals.allSatisfy { $0.contains("from inside an update") })
        // An updateCode is inside the update too.
        h.delegate.assign = { _ in }
        h.controller.updateControls { [unowned h] in h.controller.updateControls() }
        #expect(h.delegate.updates == 2)
        #expect(h.refusals.count == 4)
    }

    @Test("a unit with nothing to flicker says once why no trial starts, and again after the next update")
    func nothingToFlicker() {
        let h = EngineHarness(buttons: 0)
        h.start()
        h.run(until: 3)
        let notices = { h.kinds.filter { if case .notice(let text) = $0 { return text.hasPrefix("no trial starts") } else { return false } } }
        #expect(h.trialStarts.isEmpty)
        #expect(notices().count == 1)
        h.controller.updateControls()
        h.run(until: 4)
        #expect(notices().count == 2)
    }

    @Test("controls sharing an identifier are named in a notice at each update")
    func sharedIdentifiers() {
        let h = EngineHarness()
        h.view.add(NoiseTagButton(identifier: "b2"))
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        let notices = h.kinds.compactMap { if case .notice(let text) = $0 { return text } else { return nil } }
        #expect(notices == ["controls of the current unit share an identifier ('b2'): presses, events and recordings cannot tell them apart"])
    }

    @Test("updateControls with no unit says why")
    func updateControlsNoUnit() {
        let h = EngineHarness()
        h.controller.updateControls()
        #expect(h.refusals.contains { $0.contains("no unit") })
    }

    @Test("controls in a hidden container do not flicker")
    func hiddenContainer() {
        let h = EngineHarness(buttons: 2)
        let panel = NoiseTagView(isHidden: true)
        let inner = NoiseTagButton(identifier: "inner")
        panel.add(inner)
        h.view.addSubview(panel)
        h.start()
        h.run(until: 0.1)
        guard case .trialStarted(let start)? = h.trialStarts.first?.kind else { Issue.record("no trial"); return }
        #expect(start.controls == ["b1", "b2"])
        #expect(inner.isHiddenOrInHiddenContainer)
    }

    @Test("duplicate custom object IDs are reported and no trial starts")
    func duplicateIDs() {
        let h = EngineHarness(buttons: 2)
        h.buttons[0].noiseTagging.customUtopiaObjectID = 9
        h.buttons[1].noiseTagging.customUtopiaObjectID = 9
        h.start()
        h.run(until: 2)
        #expect(h.trialStarts.isEmpty)
        #expect(h.refusals == ["object ID 9 is used by more than one control: b1, b2"])
    }
}
