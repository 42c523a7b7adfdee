import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Decoder liveness")
struct LivenessTests {
    private func states(_ h: EngineHarness) -> [DecoderConnectionState] {
        h.kinds.compactMap { if case .decoderConnection(let s, _) = $0 { return s } else { return nil } }
    }

    @Test("no trial before the decoder answers; SUBSCRIBE and heartbeats go out meanwhile")
    func connecting() {
        let h = EngineHarness(monitorsLiveness: true)
        h.start()
        h.run(until: 3)
        #expect(h.trialStarts.isEmpty)
        #expect(h.controller.decoderConnection == .connecting)
        let subscribes = h.link.sent.filter { if case .subscribe(let s) = $0 { return s.messageIDs == "PFTVCMHLQ" } else { return false } }
        let beats = h.link.sent.filter { if case .heartbeat = $0 { return true } else { return false } }
        #expect(subscribes.count == 3 && beats.count == 3, "one per heartbeatInterval from t=0")
        h.heartbeat()
        h.run(for: 0.02)
        #expect(h.controller.decoderConnection == .connected)
        #expect(h.trialStarts.count == 1)
        #expect(states(h) == [.connecting, .connected])
    }

    @Test("silence for decoderTimeout: disconnected with alarm, trial stopped, no presses; resumes when messages flow")
    func lostAndFound() {
        let h = EngineHarness(monitorsLiveness: true)
        h.start()
        h.heartbeat()
        h.run(until: 2)
        h.heartbeat()
        h.controller.tick()
        #expect(h.controller.trialInProgress)
        // The decoder goes silent after t=2: timeout 3 s.
        h.run(until: 5.0)
        #expect(h.controller.decoderConnection == .connected)
        h.run(until: 5.02)
        #expect(h.controller.decoderConnection == .disconnected)
        #expect(h.kinds.contains(.decoderConnection(state: .disconnected, alarm: true)))
        #expect(h.kinds.contains(.sound(name: "decoderLost")))
        #expect(h.trialEnds.last?.ending == .stopped(.decoderLost))
        h.run(until: 10)
        #expect(h.trialStarts.count == 1, "no trial while the decoder is silent")
        #expect(h.controller.trialsAreBlocked)
        h.link.clearSent()
        h.heartbeat()                               // any message is a sign of life
        h.run(for: 1.5)
        #expect(h.controller.decoderConnection == .connected)
        #expect(h.trialStarts.count == 2)
        let resent = h.link.sent.prefix(3).map { message -> String in
            switch message {
            case .subscribe: return "B"
            case .modeChange(let m): return m.newMode
            default: return "other"
            }
        }
        #expect(resent == ["B", "Prediction.static", "other"], "SUBSCRIBE and the current mode go out again on reconnect")
    }

    @Test("a new connection while connected (a decoder restarted within decoderTimeout): trial stopped, connected again, SUBSCRIBE and the mode resent")
    func restartedWithinTheTimeout() {
        let h = EngineHarness(monitorsLiveness: true)
        h.link.pendingConnections = 1               // the first connection: greeted when heard, as always
        h.start()
        h.heartbeat()
        h.run(until: 1.5)
        #expect(h.controller.trialInProgress)
        #expect(states(h) == [.connecting, .connected])
        h.link.clearSent()
        h.link.pendingConnections = 1               // libzmq made the connection again
        h.heartbeat()
        h.controller.tick()
        #expect(h.trialEnds.last?.ending == .stopped(.decoderLost))
        #expect(states(h) == [.connecting, .connected, .connected])
        #expect(h.controller.decoderConnection == .connected)
        let greeting = h.link.sent.compactMap { message -> String? in
            switch message {
            case .subscribe(let s): return s.messageIDs
            case .modeChange(let m): return m.newMode
            default: return nil
            }
        }
        #expect(greeting == ["PFTVCMHLQ", "Prediction.static"])
        h.run(for: 1.5)
        #expect(h.trialStarts.count == 2, "the next trial runs with the new decoder")
        #expect(h.trialEnds.count == 1)
    }

    @Test("soundAlarmWhenDisconnecting off: no alarm")
    func noAlarm() throws {
        let h = EngineHarness(monitorsLiveness: true)
        try h.settings.set(value: .bool(false), for: .soundAlarmWhenDisconnecting)
        h.start()
        h.heartbeat()
        h.run(until: 4)
        #expect(h.kinds.contains(.decoderConnection(state: .disconnected, alarm: false)))
        #expect(!h.kinds.contains(.sound(name: "decoderLost")))
    }

    @Test("before the decoder answers, no MODECHANGE; after, SUBSCRIBE then the mode")
    func handshakeOrder() {
        let h = EngineHarness(monitorsLiveness: true)
        h.start(in: .test)
        h.run(until: 1.5)
        #expect(!h.link.sent.contains { if case .modeChange = $0 { return true } else { return false } })
        h.link.clearSent()
        h.heartbeat()
        h.controller.tick()
        let order = h.link.sent.prefix(2).map(\.messageID)
        #expect(order == [UInt8(ascii: "B"), UInt8(ascii: "M")])
    }

    @Test("a link without liveness watch counts as connected")
    func inProcess() {
        let h = EngineHarness()
        #expect(h.controller.decoderConnection == .connected)
        h.controller.decoderLink = nil
        #expect(h.controller.decoderConnection == .none)
    }

    @Test("malformed frames reported by the link appear as events")
    func problems() {
        let h = EngineHarness()
        h.link.pendingProblems = ["malformed frame of 3 bytes dropped: short header"]
        h.controller.tick()
        #expect(h.kinds.contains(.decoderProblem("malformed frame of 3 bytes dropped: short header")))
    }

    @Test("a flood of malformed frames: ten a second in full, the rest counted in one event when the second is over")
    func problemFlood() {
        let h = EngineHarness()
        func problems() -> [String] {
            h.kinds.compactMap { if case .decoderProblem(let text) = $0 { return text } else { return nil } }
        }
        h.link.pendingProblems = (1...50).map { "malformed frame \($0)" }
        h.controller.tick()
        #expect(problems() == (1...10).map { "malformed frame \($0)" })
        h.run(for: 0.5)
        #expect(problems().count == 10)
        h.run(for: 0.6)
        #expect(problems().count == 11)
        #expect(problems().last?.hasPrefix("40 more malformed frame(s) or link problem(s) in the last second") == true)
        // A later problem is reported in full again.
        h.link.pendingProblems = ["malformed frame 51"]
        h.run(for: 0.05)
        #expect(problems().last == "malformed frame 51")
    }

    @Test("a slow decoder is reported once after durationAutoConnectBeforeWarningUser")
    func slowConnect() {
        let h = EngineHarness(monitorsLiveness: true)
        h.start()
        h.run(until: 10.5)
        let notices = h.kinds.filter { if case .notice(let n) = $0 { return n.contains("no decoder has answered") } else { return false } }
        #expect(notices.count == 1)
    }
}
