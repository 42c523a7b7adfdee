import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Frame and traffic observers")
struct ObserverTests {
    @Test("every frame is reported once, however often the app ticks; stimulus states only on flicker frames")
    func frames() {
        let h = EngineHarness()
        var records: [FrameRecord] = []
        h.controller.observeFrames { records.append($0) }
        h.start(in: .trainSimple)
        // An app ticking from its own loop, many times a frame: one record (one frames.csv line) per frame.
        for _ in 0..<120 {
            h.clock.advance(by: 1.0 / 60)
            for _ in 0..<5 { h.controller.tick() }
        }
        #expect(records.count == 121)
        #expect(Set(records.map(\.index)).count == 121)
        let cue = records.filter { $0.phase == .cue }
        let flicker = records.filter { $0.phase == .flicker }
        #expect(!cue.isEmpty && cue.allSatisfy { $0.states.isEmpty && $0.trial == 1 })
        #expect(!flicker.isEmpty && flicker.allSatisfy { $0.objIDs == [0, 1, 2, 3, 4] && $0.states.count == 5 })
    }

    @Test("a handler removed by another during a call is not called for it; one added is first called by the next")
    func removalDuringACallTakesEffectAtOnce() {
        let h = EngineHarness()
        var heard: [String] = []
        var second: NoiseTagEventStream.Token?
        var third: NoiseTagEventStream.Token?
        _ = h.controller.events.subscribe { _ in
            heard.append("first")
            if let token = second { h.controller.events.unsubscribe(token); second = nil }
            if third == nil { third = h.controller.events.subscribe { _ in heard.append("third") } }
        }
        second = h.controller.events.subscribe { _ in heard.append("second") }
        h.controller.events.emit(NoiseTagEvent(time: 0, kind: .feedbackEnded))
        #expect(heard == ["first"])
        h.controller.events.emit(NoiseTagEvent(time: 0, kind: .feedbackEnded))
        #expect(heard == ["first", "first", "third"])
        var frames = 0
        var removed = false
        var later: NoiseTagController.ObserverToken?
        _ = h.controller.observeFrames { _ in
            if let token = later, !removed { h.controller.removeObserver(token); removed = true }
        }
        later = h.controller.observeFrames { _ in frames += 1 }
        h.start()
        h.run(for: 0.1)
        #expect(removed && frames == 0)
    }

    @Test("messages both ways are reported in order")
    func traffic() {
        let h = EngineHarness()
        var seen: [(DecoderTraffic.Direction, UInt8)] = []
        h.controller.observeDecoderTraffic { seen.append(($0.direction, $0.message.messageID)) }
        h.start()
        h.link.deliver(.heartbeat(Heartbeat(timestamp: 0)))
        h.run(for: 0.02)
        #expect(seen.first.map { $0.0 == .out && $0.1 == UInt8(ascii: "N") } == true)
        #expect(seen.contains { $0.0 == .in && $0.1 == UInt8(ascii: "H") })
        #expect(seen.filter { $0.0 == .out }.count == h.link.sent.count)
    }

    @Test("an observer that replaces the decoder link during a tick: later messages of that tick go to the new link")
    func linkReplacedByObserver() {
        let h = EngineHarness()
        let replacement = InMemoryDecoderLink()
        h.controller.events.subscribe { [unowned controller = h.controller] event in
            if case .trialStarted = event.kind, controller.decoderLink !== replacement { controller.decoderLink = replacement }
        }
        h.start()
        #expect(h.link.sent.contains { if case .newTarget = $0 { return true } else { return false } },
                "NEWTARGET went out before the trial's event")
        #expect(!h.link.sent.contains { if case .stimulusEvent = $0 { return true } else { return false } })
        let first = replacement.sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }
        #expect(first.count == 1, "the same tick's first frame went to the new link")
        h.run(for: 0.5)
        #expect(replacement.sent.count > 20 && h.controller.decoderLink === replacement)
    }

    @Test("a tick called from inside a tick is refused and reported; the outer tick finishes")
    func reentrantTick() {
        let h = EngineHarness()
        var frames = 0
        h.controller.observeFrames { [unowned controller = h.controller] _ in
            frames += 1
            controller.tick()
        }
        h.start()
        for _ in 0..<6 { h.clock.advance(by: 1.0 / 60); h.controller.tick() }
        #expect(frames == 7, "one record per outer tick")
        let refusals = h.kinds.filter { if case .refused(let call, _) = $0 { return call == "tick(frame:)" } else { return false } }
        #expect(refusals.count == frames)
        #expect(h.controller.flickerFramesRendered == frames, "each outer tick rendered its frame once")
    }

    @Test("an observer that re-enters the controller during a tick (trials off, block, pop) leaves it consistent")
    func reentrantObserver() {
        let h = EngineHarness()
        h.controller.observeFrames { [unowned controller = h.controller] record in
            if record.trial == 1, record.phase == .flicker, controller.trialsStarted == 1 {
                controller.blockTrials(forDuration: 0.5)
                controller.pop()
            }
        }
        h.start()
        h.run(for: 1)
        #expect(!h.controller.trialInProgress && h.controller.unitCount == 0)
        #expect(h.buttons.allSatisfy { $0.flickerColor == nil && !$0.isNoiseTagging }, "nothing left flickering")
        let stimuli = { h.link.sent.filter { if case .stimulusEvent = $0 { return true } else { return false } }.count }
        let before = stimuli()
        #expect(before == 1, "the flicker frame the observer saw, and none after")
        h.run(for: 1)
        #expect(stimuli() == before, "no flicker after the unit was popped")
    }
}
