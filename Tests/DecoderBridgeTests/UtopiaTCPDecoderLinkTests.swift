import DecoderBridge
import Foundation
import NoiseTagging
import Testing
import UtopiaProtocol
import ZeroMQTransport
import TestSupport

/// A stand-in Utopia hub: a TCP listener on a free loopback port that reads
/// what a client sends (framed) and writes raw bytes back.
final class TestHub {
    var listener: TCPSocket
    var client: TCPSocket?
    var framer = UtopiaStreamFramer()
    var received: [UtopiaMessage] = []
    let port: UInt16

    init(port: UInt16 = 0) throws {
        listener = try TCPSocket.listen(host: "127.0.0.1", port: port)
        self.port = listener.localPort!
    }

    var endpoint: String { "utopia://127.0.0.1:\(port)" }

    /// Waits (bounded) for a client to connect.
    func accept(timeout: Double = 5) throws -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let socket = try listener.accept() {
                client = socket
                framer = UtopiaStreamFramer()
                return true
            }
            usleep(2000)
        }
        return false
    }

    /// Reads until `condition` holds on what arrived (bounded); false when the client hung up or time ran out.
    func read(until condition: ([UtopiaMessage]) -> Bool, timeout: Double = 5, meanwhile: () -> Void = {}) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            meanwhile()
            if condition(received) { return true }
            guard let client else { return false }
            if let count = try client.receive(into: &chunk) {
                if count == 0 { return false }
                framer.append(chunk[..<count])
                while case .message(let message, _)? = framer.next() { received.append(message) }
            } else {
                usleep(2000)
            }
        }
        return condition(received)
    }

    func write(_ bytes: [UInt8]) throws {
        var rest = bytes[...]
        while !rest.isEmpty { rest = rest.dropFirst(try client!.send(rest)) }
    }

    func close() {
        client?.close()
        listener.close()
    }
}

@Suite(.tags(.sockets, .realTime), .outsideWorld) struct UtopiaTCPDecoderLinkTests {
    let beat = UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 77, stateMessage: "hub")))

    /// Runs `body` with a hub and a link to it that the hub has accepted; closes both after.
    private func withConnectedLink(sourceLocation: SourceLocation = #_sourceLocation,
                                   _ body: (TestHub, UtopiaTCPDecoderLink) throws -> Void) throws {
        let hub = try TestHub()
        defer { hub.close() }
        let link = try UtopiaTCPDecoderLink(endpoint: hub.endpoint, reconnectInterval: 0.05)
        defer { link.close() }
        #expect(try hub.accept(), sourceLocation: sourceLocation)
        try body(hub, link)
    }

    @Test func endpointsAreParsed() throws {
        #expect(try UtopiaTCPDecoderLink.parse("utopia://127.0.0.1:8401") == ("127.0.0.1", 8401))
        #expect(try UtopiaTCPDecoderLink.parse("utopia://hub.local") == ("hub.local", 8400))
        #expect(try UtopiaTCPDecoderLink.parse("utopia://[::1]:9000") == ("::1", 9000))
        for bad in ["tcp://1.2.3.4:5", "utopia://", "utopia://host:0", "utopia://host:port", "utopia://[::1"] {
            #expect(throws: DecoderEndpoint.Problem.self) { try UtopiaTCPDecoderLink.parse(bad) }
        }
    }

    @Test func theEndpointStringPicksTheTransport() throws {
        let hub = try TestHub()
        defer { hub.close() }
        let tcp = try BridgeLinks.connect(endpoint: hub.endpoint, settings: NoiseTagSettings())
        defer { tcp.close() }
        #expect(tcp is UtopiaTCPDecoderLink)
        #expect(try hub.accept())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nt-links-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let zmq = try BridgeLinks.connect(endpoint: "ipc://\(folder.path)/decoder.sock", settings: nil)
        defer { zmq.close() }
        #expect(zmq is ZeroMQDecoderLink)
        let keys = CurveClientKeys(keyPair: try CurveKeyPair.generate(), serverKey: try CurveKeyPair.generate().publicKey)
        #expect(throws: BridgeLinks.Failure.self) { _ = try BridgeLinks.connect(endpoint: hub.endpoint, settings: nil, curve: keys) }
        #expect(throws: BridgeLinks.Failure.self) { _ = try BridgeLinks.connect(endpoint: "utopia://host:0", settings: nil) }
    }

    @Test func messagesCrossWholeAndInOrderEvenWhenSplit() throws {
        try withConnectedLink { hub, link in
            #expect(eventually { link.isConnected })
            for stamp in 1...50 { link.send(.newTarget(NewTarget(timestamp: Int32(stamp)))) }
            #expect(try hub.read { $0.count == 50 })
            #expect(hub.received.map(\.timestamp) == (1...50).map(Int32.init))
            // The hub's heartbeat in two writes arrives as one message with its own bytes.
            try hub.write(Array(beat.prefix(5)))
            usleep(20_000)
            try hub.write(Array(beat.dropFirst(5)))
            var got: [WireMessage] = []
            #expect(eventually { got += link.receiveWire(); return !got.isEmpty })
            #expect(got.map(\.bytes) == [beat])
            #expect(eventually { link.statistics.sent == 50 } && link.statistics.received == 1)
            #expect(link.receiveUnsent().isEmpty)
        }
    }

    @Test func theEnginesReconnectDropsTheConnectionAndMakesANewOne() throws {
        try withConnectedLink { hub, link in
            #expect(eventually { link.isConnected })
            let first = try #require(hub.client)
            (link as any DecoderLink).reconnect()      // through the protocol, as the engine calls it
            #expect(try hub.accept(), "a new connection")
            var chunk = [UInt8](repeating: 0, count: 16)
            #expect(eventually { (try? first.receive(into: &chunk)) == 0 }, "the old one was closed")
            first.close()
        }
    }

    @Test func withNoHubEveryMessageIsListedAsNotSent() throws {
        let port = try freeLoopbackPort()
        let link = try UtopiaTCPDecoderLink(endpoint: "utopia://127.0.0.1:\(port)", reconnectInterval: 0.05)
        defer { link.close() }
        var reported: [[UInt8]] = []
        for stamp in 1...20 { reported.append(link.sendEncoded(.newTarget(NewTarget(timestamp: Int32(stamp))))!) }
        var unsent: [WireMessage] = []
        #expect(eventually { unsent += link.receiveUnsent(); return unsent.count == 20 })
        #expect(unsent.map(\.bytes) == reported)
        #expect(link.statistics.unsent == 20 && link.statistics.sent == 0)
    }

    @Test func aBadMessageIsReportedAndGarbageDropsTheConnectionWhichComesBack() throws {
        try withConnectedLink { hub, link in
            try hub.write([0x50, 0, 2, 0, 1, 2] + beat)           // a prediction too short, then a heartbeat
            var got: [WireMessage] = []
            #expect(eventually { got += link.receiveWire(); return !got.isEmpty })
            var problems: [String] = []
            #expect(eventually { problems += link.receiveProblems(); return !problems.isEmpty })
            #expect(problems.first?.contains("malformed 6-byte message") == true)
            #expect(link.isConnected)
            try hub.write([0x7A, 0, 0, 0] + beat)                // garbage: nothing after it can be framed
            #expect(eventually { problems += link.receiveProblems(); return problems.contains { $0.contains("cannot be framed") } })
            #expect(try hub.accept())                             // the link comes back on its own
            #expect(eventually { link.isConnected })
            try hub.write(beat)
            #expect(eventually { got += link.receiveWire(); return got.count == 2 })
        }
    }

    @Test func theEngineConnectsThroughAHubAndReconnectsWhenItRestarts() throws {
        var hub = try TestHub()
        let port = hub.port
        let settings = NoiseTagSettings()
        try settings.set(value: 0.5, for: .decoderTimeout)
        try settings.set(value: 0.1, for: .heartbeatInterval)
        let link = try UtopiaTCPDecoderLink(endpoint: hub.endpoint, reconnectInterval: 0.05)
        defer { link.close() }
        let controller = NoiseTagController(clock: MonotonicClock.shared, settings: settings, decoderLink: link)
        var states: [DecoderConnectionState] = []
        controller.events.subscribe { if case .decoderConnection(let state, _) = $0.kind { states.append(state) } }
        #expect(try hub.accept())
        // The hub answers the engine's SUBSCRIBE with a heartbeat; the engine then says its mode.
        let subscribed: ([UtopiaMessage]) -> Bool = { $0.contains { if case .subscribe = $0 { true } else { false } } }
        #expect(try hub.read(until: subscribed) { controller.tick() })
        try hub.write(beat)
        #expect(eventually { controller.tick(); return controller.decoderConnection == .connected })
        #expect(try hub.read(until: { $0.contains { if case .modeChange = $0 { true } else { false } } }) { controller.tick() })
        // The hub goes away: the engine notices the silence; a new hub on the same port is found again.
        hub.close()
        #expect(eventually { controller.tick(); return controller.decoderConnection == .disconnected })
        hub = try TestHub(port: port)
        defer { hub.close() }
        #expect(eventually { controller.tick(); return (try? hub.accept(timeout: 0.01)) == true })
        #expect(try hub.read(until: subscribed) { controller.tick() })
        try hub.write(beat)
        #expect(eventually { controller.tick(); return controller.decoderConnection == .connected })
        #expect(states == [.connecting, .connected, .disconnected, .connected])
    }
}
