import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Frame and traffic observers")
struct ObserverTests {
    @Test("every tick is reported; stimulus states only on flicker frames")
    func frames() {
        let h = EngineHarness()
        var records: [FrameRecord] = []
        h.controller.observeFrames { records.append($0) }
        h.controller.set(mode: .trainSimple)
        h.start()
        for _ in 0..<120 { h.clock.advance(by: 1.0 / 60); h.controller.tick() }
        #expect(records.count == 121)
        let cue = records.filter { $0.phase == .cue }
        let flicker = records.filter { $0.phase == .flicker }
        #expect(!cue.isEmpty && cue.allSatisfy { $0.states.isEmpty && $0.trial == 1 })
        #expect(!flicker.isEmpty && flicker.allSatisfy { $0.objIDs == [0, 1, 2, 3, 4] && $0.states.count == 5 })
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
}
