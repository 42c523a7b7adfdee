import DecoderService
import Foundation
import Synchronization
import Testing
import UtopiaProtocol
import ZeroMQTransport
import TestSupport

/// The decoder server with CurveZMQ on `tcp://127.0.0.1`: a client whose
/// key is authorized is greeted; a client with another key, with the wrong
/// server key or without CURVE gets nothing through, while an authorized
/// client connected at the same time is served. Each test has its own
/// context and port; every wait is bounded.
@Suite("CURVE decoder server", .serialized, .tags(.sockets, .realTime), .outsideWorld)
struct CurveDecoderServerTests {
    /// A DEALER (with or without CURVE) that collects what the decoder sends.
    final class Client {
        let socket: ZeroMQSocket
        var received: [UtopiaMessage] = []

        init(context: ZeroMQContext, endpoint: String, curve: CurveClientKeys?) throws {
            socket = try ZeroMQSocket(context: context, type: .dealer)
            if let curve { try socket.makeCurveClient(curve) }
            try socket.connect(endpoint)
        }

        deinit { socket.close() }

        /// What the engine says first: SUBSCRIBE and HEARTBEAT.
        func hello() throws {
            try socket.send(UtopiaCodec.encode(.subscribe(Subscribe(timestamp: 1, messageIDs: "PFTVCMHLQ"))), dontWait: true)
            try socket.send(UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 1))), dontWait: true)
        }

        /// Receives for `seconds` or until a HEARTBEAT arrives; true when one did.
        func greeted(within seconds: Double) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if let frame = try? socket.receive(dontWait: true) {
                    received += (try? UtopiaCodec.decode(frame: frame.bytes)) ?? []
                    if received.contains(where: { if case .heartbeat = $0 { return true } else { return false } }) { return true }
                } else {
                    usleep(2_000)
                }
            }
            return false
        }
    }

    /// What the decoder logged, from any thread.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])

        /// Waits at most `seconds` for a line containing `text`.
        func wait(for text: String, seconds: Double) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if lines.withLock({ $0.contains { $0.contains(text) } }) { return true }
                usleep(5_000)
            }
            return false
        }
    }

    /// A CURVE decoder on a free loopback port with one authorized client key, and what it logged.
    final class Rig {
        let context = ZeroMQContext()
        let endpoint: String
        let serverKeys: CurveServerKeys
        let authorized: CurveKeyPair
        let server: DecoderServer
        let log = LogLines()

        init() throws {
            endpoint = "tcp://127.0.0.1:\(try freeLoopbackPort())"
            authorized = try CurveKeyPair.generate()
            serverKeys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: [authorized.publicKey])
            let log = log
            server = try DecoderServer(endpoint: endpoint, context: context, curve: serverKeys) { line in
                log.lines.withLock { $0.append(line) }
            }
        }

        deinit { server.stop() }

        /// A client with `pair` (nil: without CURVE) that expects `serverKey` (default: the decoder's).
        func client(_ pair: CurveKeyPair?, serverKey: CurveKey? = nil) throws -> Client {
            try Client(context: context, endpoint: endpoint,
                       curve: pair.map { CurveClientKeys(keyPair: $0, serverKey: serverKey ?? serverKeys.keyPair.publicKey) })
        }
    }

    @Test("a client whose key is in the authorized keys is greeted over tcp:// with CURVE")
    func authorizedClient() throws {
        let rig = try Rig()
        let client = try rig.client(rig.authorized)
        try client.hello()
        #expect(client.greeted(within: 5))
        let end = Date().addingTimeInterval(2)
        while rig.server.statistics.received < 2, Date() < end { usleep(5_000) }   // published once per turn of its loop
        #expect(rig.server.statistics.received >= 2)
    }

    @Test("a client whose key is not listed gets nothing, the decoder hears nothing, and the refusal is logged")
    func unlistedKey() throws {
        let rig = try Rig()
        let stranger = try CurveKeyPair.generate()
        let intruder = try rig.client(stranger)
        let engine = try rig.client(rig.authorized)
        try intruder.hello()
        try engine.hello()
        #expect(engine.greeted(within: 5))
        #expect(rig.log.wait(for: "CURVE refused client key \(stranger.publicKey.z85)", seconds: 5))
        #expect(!intruder.greeted(within: 1.5))
        #expect(intruder.received.isEmpty)
        #expect(rig.server.statistics.peers == 1, "only the authorized engine")
    }

    @Test("a client without CURVE gets nothing while an authorized one is served")
    func noKey() throws {
        let rig = try Rig()
        let plain = try rig.client(nil)
        let engine = try rig.client(rig.authorized)
        try plain.hello()
        try engine.hello()
        #expect(engine.greeted(within: 5))
        #expect(!plain.greeted(within: 1.5))
        #expect(plain.received.isEmpty)
        #expect(rig.server.statistics.peers == 1)
    }

    @Test("a client expecting another server key gets nothing, even with an authorized key pair")
    func wrongServerKey() throws {
        let rig = try Rig()
        let misled = try rig.client(rig.authorized, serverKey: try CurveKeyPair.generate().publicKey)
        let engine = try rig.client(rig.authorized)
        try misled.hello()
        try engine.hello()
        #expect(engine.greeted(within: 5))
        #expect(!misled.greeted(within: 1.5))
        #expect(rig.server.statistics.peers == 1)
    }

    @Test("two CURVE decoders in one context each let in only their own clients")
    func twoServersOneContext() throws {
        let first = try Rig()
        let secondKeys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: [try CurveKeyPair.generate().publicKey])
        let secondEndpoint = "tcp://127.0.0.1:\(try freeLoopbackPort())"
        let second = try DecoderServer(endpoint: secondEndpoint, context: first.context, curve: secondKeys)
        defer { second.stop() }
        let crossing = try Client(context: first.context, endpoint: secondEndpoint,
                                  curve: CurveClientKeys(keyPair: first.authorized, serverKey: secondKeys.keyPair.publicKey))
        let engine = try first.client(first.authorized)
        try crossing.hello()
        try engine.hello()
        #expect(engine.greeted(within: 5))
        #expect(!crossing.greeted(within: 1.5), "the first decoder's client is not on the second's list")
        second.stop()
        let late = try first.client(first.authorized)
        try late.hello()
        #expect(late.greeted(within: 5), "the first decoder still authenticates after the second stopped")
    }

    @Test("CURVE on inproc:// is refused: inproc has no security handshake")
    func inprocRefused() throws {
        let keys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: [])
        let context = ZeroMQContext()
        #expect {
            _ = try DecoderServer(endpoint: "inproc://curve-decoder", context: context, curve: keys)
        } throws: { error in
            "\(error)".contains("CURVE needs a tcp:// or ipc:// endpoint")
        }
    }
}
