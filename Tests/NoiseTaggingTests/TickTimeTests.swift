import Foundation
import NoiseTagging
import Testing
import UtopiaProtocol

/// One clock reading per tick: everything a tick stamps carries the tick's
/// time, even when the real clock moves while the tick runs, so the frame
/// times in a recording are enough to reproduce every timestamp.
@Suite("Tick time")
struct TickTimeTests {
    /// A clock that moves forward by 0.37 ms at every reading, as a real one
    /// does while the engine works; `advance` moves it by a frame.
    final class CreepingClock: EngineClock {
        var time = 100.0
        var now: Double {
            time += 0.000_37
            return time
        }
    }

    @Test("Events, messages, presses and feedback of a tick carry the time the tick began")
    func oneReadingPerTick() throws {
        let clock = CreepingClock()
        let link = InMemoryDecoderLink()
        let controller = NoiseTagController(clock: clock, decoderLink: link, seed: 7)
        try controller.settings.set(value: 0.3, for: .minTrialDuration)
        let buttons = [NoiseTagButton(identifier: "yes"), NoiseTagButton(identifier: "no")]
        let view = NoiseTagView()
        buttons.forEach(view.add)
        final class Unit: NoiseTagDelegate {}
        let unit = Unit()
        var pending: [NoiseTagEvent] = []
        var checked = 0, messages = 0
        var outgoing: [DecoderTraffic] = []
        controller.events.subscribe { pending.append($0) }
        controller.observeDecoderTraffic { if $0.direction == .out { outgoing.append($0) } }
        controller.observeFrames { frame in
            for event in pending {
                #expect(event.time == frame.time, "\(event.kind) at \(event.time), tick at \(frame.time)")
                checked += 1
            }
            for traffic in outgoing {
                #expect(traffic.time == frame.time)
                #expect(traffic.message.timestamp == MonotonicClock.utopiaTimestamp(for: frame.time),
                        "\(traffic.message.messageType) stamped \(traffic.message.timestamp) in the tick at \(frame.time)")
                messages += 1
            }
            pending.removeAll()
            outgoing.removeAll()
        }
        controller.push(view: view, forNoiseTaggingWithDelegate: unit)
        controller.set(mode: .test)
        controller.trialsAreRunning = true
        pending.removeAll()
        outgoing.removeAll()
        var pressed = false
        for frame in 0..<240 {
            clock.time += 1.0 / 60
            if frame % 6 == 0, controller.currentPhase == .flicker {
                link.deliver(.predictedTargetProb(PredictedTargetProb(timestamp: MonotonicClock.utopiaTimestamp(for: clock.time),
                                                                      objID: 1, errorProbability: 0.001)))
            }
            controller.tick()
            pressed = pressed || controller.isShowingFeedback
        }
        #expect(pressed, "a brain press happened, with its SELECTION and feedback in the check")
        #expect(checked > 10 && messages > 30, "\(checked) events and \(messages) messages checked")
    }

    @Test("The monotonic clock reads whole microseconds that survive six-decimal text")
    func monotonicMicroseconds() {
        for _ in 0..<1000 {
            let t = MonotonicClock.shared.now
            #expect(Double(String(format: "%.6f", t)) == t)
        }
    }
}
