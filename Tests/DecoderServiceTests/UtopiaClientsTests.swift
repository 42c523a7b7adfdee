import DecoderService
import Foundation
import Testing
import UtopiaProtocol
import ZeroMQTransport
import TestSupport

/// The decoder's Utopia TCP port: MindAffect-style clients served like
/// ZeroMQ ones, EEG from one transport reaching a client on the other,
/// and garbage, half frames and silent clients dealt with.
@Suite(.serialized, .tags(.sockets, .realTime), .outsideWorld) struct UtopiaClientsTests {
    /// A Utopia TCP client with bounded waits.
    final class TCPClient {
        let socket: TCPSocket
        var framer = UtopiaStreamFramer()
        var received: [UtopiaMessage] = []
        var closed = false

        init(port: UInt16) throws { socket = try TCPSocket.connect(host: "127.0.0.1", port: port) }

        func send(_ bytes: [UInt8]) throws {
            var rest = bytes[...]
            while !rest.isEmpty { rest = rest.dropFirst(try socket.send(rest)) }
        }
        func send(_ message: UtopiaMessage) throws { try send(UtopiaCodec.encode(message)) }

        @discardableResult
        func receive(for seconds: Double, until done: ([UtopiaMessage]) -> Bool = { _ in false }) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !closed {
                if done(received) { return true }
                if let count = try? socket.receive(into: &chunk) {
                    if count == 0 { closed = true; break }
                    framer.append(chunk[..<count])
                    while case .message(let message, _)? = framer.next() { received.append(message) }
                } else {
                    usleep(2_000)
                }
            }
            return done(received)
        }
    }

    static func has(_ id: Character) -> ([UtopiaMessage]) -> Bool {
        { $0.contains { Character(UnicodeScalar($0.messageID)) == id } }
    }

    static func server(_ name: String, settings: DecoderServerSettings = DecoderServerSettings(),
                       context: ZeroMQContext) throws -> (DecoderServer, UInt16) {
        let listener = try TCPSocket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort!
        let server = try DecoderServer(endpoint: "inproc://\(name)", settings: settings, context: context, utopiaListener: listener)
        return (server, port)
    }

    /// A ZeroMQ client of the decoder `name` (on `context`) that has subscribed to `messageIDs`.
    static func subscriber(of name: String, context: ZeroMQContext, to messageIDs: String) throws -> DecoderServerTests.Client {
        let client = try DecoderServerTests.Client(context: context, endpoint: "inproc://\(name)")
        try client.send(.subscribe(Subscribe(timestamp: 1, messageIDs: messageIDs)))
        return client
    }

    /// 250 Hz, 4 channels: a header and 50 packets of 10 samples.
    static func eeg(start: Int32) -> [UtopiaMessage] {
        var messages: [UtopiaMessage] = [.dataHeader(DataHeader(timestamp: start, channelCount: 4, sampleRate: 250, labels: ["C1", "C2", "C3", "C4"]))]
        for k in 0..<50 {
            let samples = (0..<10).map { i in (0..<4).map { c in Float(sin(Double(k * 10 + i) * 0.3 + Double(c))) * 10 } }
            messages.append(.dataPacket(DataPacket(timestamp: start + Int32(k * 40), samples: samples)))
        }
        return messages
    }

    @Test func anAcquisitionClientOnTCPFeedsAnEngineOnZeroMQAndTheOtherWayRound() throws {
        let context = ZeroMQContext()
        var settings = DecoderServerSettings()
        settings.qualityInterval = 0.2
        let (server, port) = try Self.server("utopia-routing", settings: settings, context: context)
        defer { server.stop() }
        // TCP acquisition → ZeroMQ engine: the engine hears the decoder's greeting and the signal quality of that EEG.
        let engine = try Self.subscriber(of: "utopia-routing", context: context, to: "PFTVCMHLQ")
        let amplifier = try TCPClient(port: port)
        for message in Self.eeg(start: 1000) { try amplifier.send(message) }
        #expect(amplifier.receive(for: 5, until: Self.has("H")))        // a TCP client is greeted like any peer
        #expect(engine.receive(for: 10, until: Self.has("Q")))
        // ZeroMQ acquisition → TCP presentation: a TCP client that subscribed to Q hears the quality of EEG sent over ZeroMQ.
        let other = ZeroMQContext()
        let (second, secondPort) = try Self.server("utopia-routing-2", settings: settings, context: other)
        defer { second.stop() }
        let presentation = try TCPClient(port: secondPort)
        try presentation.send(.subscribe(Subscribe(timestamp: 1, messageIDs: "PFTVCMHLQ")))
        let zmqAmplifier = try DecoderServerTests.Client(context: other, endpoint: "inproc://utopia-routing-2")
        for message in Self.eeg(start: 5000) { try zmqAmplifier.send(message) }
        #expect(presentation.receive(for: 10, until: Self.has("Q")))
        #expect(server.statistics.peers >= 2)
    }

    @Test func garbageDropsTheClientHalfFramesWaitAndSilentClientsAreForgotten() throws {
        let context = ZeroMQContext()
        var settings = DecoderServerSettings()
        settings.peerTimeout = 0.5
        settings.heartbeatInterval = 0.1
        let (server, port) = try Self.server("utopia-garbage", settings: settings, context: context)
        defer { server.stop() }
        let watcher = try Self.subscriber(of: "utopia-garbage", context: context, to: "L")
        // A half frame waits for its rest: the message then counts.
        let patient = try TCPClient(port: port)
        let heartbeat = UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 7)))
        try patient.send(Array(heartbeat.prefix(3)))
        usleep(100_000)
        try patient.send(Array(heartbeat.dropFirst(3)))
        #expect(patient.receive(for: 5, until: Self.has("H")))
        // Garbage: the connection is dropped and the decoder says so.
        let rude = try TCPClient(port: port)
        try rude.send([0x7A, 0, 0, 0, 1, 2, 3])
        rude.receive(for: 5)
        #expect(rude.closed)
        #expect(watcher.receive(for: 5) { $0.contains { if case .log(let l) = $0 { l.message.contains("Utopia client dropped") } else { false } } })
        // A client that connects and sends nothing is forgotten after peerTimeout.
        let silent = try TCPClient(port: port)
        silent.receive(for: 5)
        #expect(silent.closed)
    }
}
