import DecoderService
import Decoding
import Foundation
import Simulation
import Synchronization
import Testing
import UtopiaProtocol
import ZeroMQTransport
import TestSupport

/// The decoder server on a real ROUTER socket, embedded in this process over
/// `inproc://` (same context) and `ipc://`: handshake, subscriptions, mode
/// confirmation, malformed frames, and a clean stop.
@Suite(.serialized, .tags(.sockets, .realTime), .outsideWorld) struct DecoderServerTests {
    /// A DEALER client that collects what the decoder sends, with bounded waits.
    final class Client {
        let socket: ZeroMQSocket
        var received: [UtopiaMessage] = []

        /// Connects, and subscribes to `messageIDs` when given.
        init(context: ZeroMQContext, endpoint: String, subscribing messageIDs: String? = nil) throws {
            socket = try ZeroMQSocket(context: context, type: .dealer)
            try socket.connect(endpoint)
            if let messageIDs { try send(.subscribe(Subscribe(timestamp: 1, messageIDs: messageIDs))) }
        }

        func send(_ message: UtopiaMessage) throws { try socket.send(UtopiaCodec.encode(message)) }

        /// Receives until `done` holds or `seconds` pass; returns `done`'s last answer.
        @discardableResult
        func receive(for seconds: Double, until done: ([UtopiaMessage]) -> Bool = { _ in false }) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if let frame = try? socket.receive(dontWait: true) {
                    received += (try? UtopiaCodec.decode(frame: frame.bytes)) ?? []
                    if done(received) { return true }
                } else {
                    usleep(2_000)
                }
            }
            return done(received)
        }

        func ids() -> Set<Character> { Set(received.map { Character(UnicodeScalar($0.messageID)) }) }
    }

    static func simulated() -> DecoderServerSettings {
        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.05, seed: 2, gaze: .target)
        return settings
    }

    @Test func aNewPeerIsGreetedAndGetsOnlyWhatItSubscribedTo() throws {
        let context = ZeroMQContext()
        let server = try DecoderServer(endpoint: "inproc://decoder-greeting", settings: Self.simulated(), context: context)
        defer { server.stop() }
        let engine = try Client(context: context, endpoint: "inproc://decoder-greeting")
        let quiet = try Client(context: context, endpoint: "inproc://decoder-greeting")
        try engine.send(.subscribe(Subscribe(timestamp: 1, messageIDs: "PFTVCMHLQ")))
        try engine.send(.heartbeat(Heartbeat(timestamp: 1)))
        try quiet.send(.subscribe(Subscribe(timestamp: 1, messageIDs: "H")))
        try quiet.send(.heartbeat(Heartbeat(timestamp: 1)))
        let greeted = engine.receive(for: 5) { $0.contains { if case .heartbeat = $0 { return true } else { return false } } }
        #expect(greeted)
        try engine.send(.modeChange(ModeChange(timestamp: 2, newMode: "ElectrodeMeasurement")))
        let confirmed = engine.receive(for: 5) { messages in
            messages.contains { if case .modeChange(let m) = $0 { return m.newMode == "ElectrodeMeasurement" } else { return false } }
                && messages.contains { if case .signalQuality(let q) = $0 { return q.quality.count == 8 } else { return false } }
        }
        #expect(confirmed)
        quiet.receive(for: 1.2)
        #expect(quiet.ids() == ["H"])
        #expect(quiet.received.filter { if case .heartbeat = $0 { return true } else { return false } }.count >= 2)
    }

    /// An acquisition client that sends EEG faster than the decoder can
    /// filter it keeps the decoder's input queue full; the heartbeats owed
    /// to the other peers still go out, about once a second, throughout.
    @Test func aFloodOfEEGDoesNotHoldOffTheHeartbeats() throws {
        let context = ZeroMQContext()
        let server = try DecoderServer(endpoint: "inproc://decoder-flood", settings: DecoderServerSettings(), context: context)
        defer { server.stop() }
        let engine = try Client(context: context, endpoint: "inproc://decoder-flood", subscribing: "H")
        try engine.send(.heartbeat(Heartbeat(timestamp: 1)))
        func isHeartbeat(_ m: UtopiaMessage) -> Bool { if case .heartbeat = m { return true } else { return false } }
        #expect(engine.receive(for: 5) { $0.contains(where: isHeartbeat) })
        engine.received = []
        let amplifier = try Client(context: context, endpoint: "inproc://decoder-flood")
        try amplifier.send(.dataHeader(DataHeader(timestamp: 1, channelCount: 32, sampleRate: 1000,
                                                  labels: (1...32).map { "C\($0)" })))
        let samples = (0..<200).map { i in (0..<32).map { c in Float(sin(Double(i) * 0.1 + Double(c))) * 10 } }
        let end = Date().addingTimeInterval(3.5)
        var stamp: Int32 = 1, sent = 0
        while Date() < end {
            for _ in 0..<50 {
                stamp += 200
                try amplifier.send(.dataPacket(DataPacket(timestamp: stamp, samples: samples)))   // blocks while the queue is full
                sent += 1
            }
        }
        engine.receive(for: 0.2)     // what queued up for the engine meanwhile
        let beats = engine.received.filter(isHeartbeat).count
        #expect(beats >= 2, "\(beats) heartbeat(s) in 3.5 s while \(sent) packets of 200 samples × 32 channels were sent")
    }

    @Test func aMalformedFrameIsDroppedLoggedAndTheDecoderGoesOn() throws {
        let context = ZeroMQContext()
        let server = try DecoderServer(endpoint: "inproc://decoder-malformed", settings: DecoderServerSettings(), context: context)
        defer { server.stop() }
        let engine = try Client(context: context, endpoint: "inproc://decoder-malformed", subscribing: "MHL")
        try engine.socket.send([0x45, 0x00, 0x03, 0x00, 1, 2, 3])          // STIMULUSEVENT too short
        try engine.socket.send([0x5A, 0x00, 0x00, 0x00])                   // unknown id
        try engine.send(.modeChange(ModeChange(timestamp: 2, newMode: "idle")))
        let logged = engine.receive(for: 5) { messages in
            messages.contains { if case .log(let l) = $0 { return l.message.contains("malformed frame") } else { return false } }
                && messages.contains { if case .modeChange(let m) = $0 { return m.newMode == "idle" } else { return false } }
        }
        #expect(logged)
        #expect(server.statistics.malformedFrames == 2)
    }

    @Test func theServerPublishesASignalSnapshotOfItsEEGThatAnyThreadCanRead() throws {
        let context = ZeroMQContext()
        let server = try DecoderServer(endpoint: "inproc://decoder-snapshot", settings: Self.simulated(), context: context)
        defer { server.stop() }
        /// Reads `server.signalSnapshot` until `done` holds, for at most `seconds`.
        func latest(within seconds: Double, until done: (SignalSnapshot) -> Bool) -> SignalSnapshot? {
            let end = Date().addingTimeInterval(seconds)
            repeat {
                let snapshot = server.signalSnapshot
                if done(snapshot) { return snapshot }
                usleep(5_000)
            } while Date() < end
            return nil
        }
        let first = try #require(latest(within: 5) { !$0.isEmpty })
        #expect(first.sampleRate == 250)
        #expect(first.channels.count == 8)
        #expect(first.channels.allSatisfy { !$0.samples.isEmpty && $0.samples.count <= 1_250 && $0.samples.allSatisfy(\.isFinite) })
        #expect(first.channels.allSatisfy { $0.samples.count == first.channels[0].samples.count })
        // Fresh copies follow as the EEG comes in, each channel with its quality.
        let later = try #require(latest(within: 5) { $0.sampleCount >= first.sampleCount + 100 })
        #expect(later.channels.count == 8)
        let rated = latest(within: 5) { $0.channels.allSatisfy { $0.quality != nil } }
        #expect(rated != nil)
        server.stop()
        #expect(server.signalSnapshot.sampleCount >= later.sampleCount)   // still readable once stopped
    }

    @Test func anInputSinkGetsWhatTheDecoderConsumedAndNotHeartbeatsOrSubscriptions() throws {
        let context = ZeroMQContext()
        let recorded = Mutex<[DecoderInputRecord]>([])
        let server = try DecoderServer(endpoint: "inproc://decoder-input-sink", settings: Self.simulated(), context: context,
                                       inputSink: { records in recorded.withLock { $0 += records } })
        defer { server.stop() }
        let engine = try Client(context: context, endpoint: "inproc://decoder-input-sink", subscribing: "M")
        try engine.send(.heartbeat(Heartbeat(timestamp: 1)))
        try engine.send(.modeChange(ModeChange(timestamp: 2, newMode: "Calibration.supervised")))
        try engine.send(.newTarget(NewTarget(timestamp: 3)))
        try engine.send(.stimulusEvent(StimulusEvent(timestamp: 4, objIDs: [0, 1], objStates: [1, 1])))
        engine.receive(for: 5) { $0.contains { if case .modeChange = $0 { return true } else { return false } } }
        /// The message letters recorded so far.
        func letters() -> [Character] { recorded.withLock { $0.map { Character(UnicodeScalar($0.messageID)) } } }
        let end = Date().addingTimeInterval(5)
        while Date() < end, !(letters().contains("E") && letters().contains("D")) { usleep(5_000) }
        let ids = letters()
        #expect(ids.first == "A")                                   // the simulated amplifier's header
        #expect(ids.filter { $0 != "D" }.prefix(4) == ["A", "M", "N", "E"])
        #expect(ids.contains("D"))
        #expect(!ids.contains("B") && !ids.contains("H"))
        let times = recorded.withLock { $0.map(\.time) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(abs(times[0] - MonotonicClock.milliseconds() / 1000) < 60)
    }

    @Test func theServerRunsOnIpcAndStopsCleanly() throws {
        let folder = "/tmp/noisetag-server-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let endpoint = "ipc://\(folder)/decoder.sock"
        let server = try DecoderServer(endpoint: endpoint, settings: Self.simulated())
        let client = try Client(context: .shared, endpoint: endpoint)
        try client.send(.subscribe(Subscribe(timestamp: 1, messageIDs: "HQ")))
        let answered = client.receive(for: 5) { $0.contains { if case .signalQuality = $0 { return true } else { return false } } }
        #expect(answered)
        #expect(server.statistics.peers == 1)
        server.stop()
        server.stop()     // a second stop does nothing
        client.socket.close()
    }
}

/// Binding failures are errors, not hangs or crashes.
@Suite(.tags(.sockets), .outsideWorld) struct DecoderServerBindingTests {
    @Test func aSecondDecoderOnTheSameIpcSocketIsRefused() throws {
        let folder = "/tmp/noisetag-bind-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let endpoint = "ipc://\(folder)/decoder.sock"
        let first = try DecoderServer(endpoint: endpoint)
        defer { first.stop() }
        #expect(throws: ZeroMQError.self) { _ = try DecoderServer(endpoint: endpoint) }
    }

    @Test func aMalformedEndpointIsAnError() {
        #expect(throws: ZeroMQError.self) { _ = try DecoderServer(endpoint: "carrier-pigeon://coop") }
    }
}
