import Testing
@testable import NoiseTagging

@Suite("Actions")
struct ActionTests {
    @Test("actions run at their timing fraction of the feedback: 0, 0.5 and 1")
    func timingFractions() throws {
        let h = try EngineHarness { try $0.set(value: .double(2), for: .feedbackDuration) }
        var ran: [(String, Double)] = []
        h.delegate.assign = { [unowned h] _ in
            let b = h.buttons[0].noiseTagging
            try? b.addAction(timing: 1) { ran.append(("end", h.clock.now)) }
            try? b.addAction(timing: 0) { ran.append(("start", h.clock.now)) }
            try? b.addAction(timing: 0.5) { ran.append(("half", h.clock.now)) }
        }
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 1, perr: 0.01)
        let pressTime = h.run(untilTrue: { !h.presses.isEmpty }, step: 0.001)!
        #expect(ran.map(\.0) == ["start"])
        #expect(ran[0].1 == pressTime)
        h.run(until: pressTime + 0.999)
        #expect(ran.map(\.0) == ["start"])
        h.run(until: pressTime + 1.0)
        #expect(ran.map(\.0) == ["start", "half"])
        #expect(ran.count == 2 && abs(ran[1].1 - (pressTime + 1.0)) < 1e-9)
        h.run(until: pressTime + 2.0)
        #expect(ran.map(\.0) == ["start", "half", "end"])
        #expect(ran.count == 3 && abs(ran[2].1 - (pressTime + 2.0)) < 1e-9)
        #expect(!h.controller.isShowingFeedback)
    }

    @Test("actions assigned outside an update are refused with an error event")
    func outsideUpdate() {
        let h = EngineHarness()
        h.start()
        #expect(throws: NoiseTagError.actionOutsideUpdate(control: "b1")) {
            try h.buttons[0].noiseTagging.addAction { }
        }
        #expect(h.buttons[0].noiseTagging.actions.isEmpty)
        #expect(h.refusals.contains { $0.contains("only be assigned during an update") })
    }

    @Test("a control never pushed cannot get actions either")
    func neverPushed() {
        let lonely = NoiseTagButton(identifier: "lonely")
        #expect(throws: NoiseTagError.actionOutsideUpdate(control: "lonely")) {
            try lonely.noiseTagging.addAction { }
        }
    }

    @Test("a timing outside 0...1 is refused")
    func timingOutOfRange() {
        let h = EngineHarness()
        var errors: [NoiseTagError] = []
        h.delegate.assign = { [unowned h] _ in
            for timing in [-0.1, 1.5, Double.nan] {
                do { try h.buttons[0].noiseTagging.addAction(timing: timing) { } } catch let error as NoiseTagError { errors.append(error) } catch {}
            }
        }
        h.start()
        #expect(errors.count == 3)
        #expect(h.buttons[0].noiseTagging.actions.isEmpty)
        #expect(h.refusals.filter { $0.contains("outside 0...1") }.count == 3)
    }

    @Test("each update deletes all actions before the delegate assigns them anew")
    func updateReassigns() {
        let h = EngineHarness()
        h.delegate.assign = { [unowned h] _ in try? h.buttons[1].noiseTagging.addAction { } }
        h.start()
        #expect(h.buttons[1].noiseTagging.actions.count == 1)
        h.controller.updateControls()
        h.controller.updateControls()
        #expect(h.buttons[1].noiseTagging.actions.count == 1)
        #expect(h.delegate.updates == 3)
    }

    @Test("updateControls runs its code inside the update, so it may assign actions")
    func updateCodeMayAssign() throws {
        let h = EngineHarness()
        h.start()
        var assigned = false
        h.controller.updateControls {
            assigned = (try? h.buttons[2].noiseTagging.addAction { }) != nil
        }
        #expect(assigned)
    }

    @Test("an action with timing 1 runs once the visual feedback has finished and the controls look normal again")
    func timingOneAfterFeedback() throws {
        let h = try EngineHarness { try $0.set(value: "NonselectedGray", for: .clickFeedbackMode) }
        var seen: (feedback: Bool, colors: [NoiseTagColor?], feedbackEndedBefore: Bool)?
        h.delegate.assign = { [unowned h] _ in
            try? h.buttons[0].noiseTagging.addAction(timing: 1) {
                seen = (h.controller.isShowingFeedback, h.buttons.map(\.feedbackColor),
                        h.events.contains { $0.kind == .feedbackEnded })
            }
        }
        h.start()
        h.run(until: 1.5)
        h.predict(objectID: 1, perr: 0)
        h.run(for: 2)
        #expect(seen?.feedback == false)
        #expect(seen?.colors == [nil, nil, nil, nil])
        #expect(seen?.feedbackEndedBefore == true)
    }
}
