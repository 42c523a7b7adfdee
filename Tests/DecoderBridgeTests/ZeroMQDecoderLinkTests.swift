import ZeroMQTransport
import Foundation
import Testing
import UtopiaProtocol
@testable import DecoderBridge
import NoiseTagging
import TestSupport

@Suite("ZeroMQ decoder link", .serialized, .tags(.sockets, .realTime), .outsideWorld)
struct ZeroMQDecoderLinkTests {
    @Test("messages go out as single frames and come back decoded, each with the bytes that crossed the socket")
    func roundTrip() throws {
        let decoder = try FakeDecoder()
        let link = try ZeroMQDecoderLink(endpoint: decoder.endpoint)
        defer { link.close() }
        let hello = UtopiaMessage.heartbeat(Heartbeat(timestamp: 42))
        // IMMEDIATE: sends before the connection completes are dropped, so repeat until one lands.
        var frame: [UInt8]?
        var reported: [UInt8]?
        for _ in 0..<200 where frame == nil {
            reported = link.sendEncoded(hello)
            frame = try decoder.receive(timeout: 0.02)
        }
        #expect(frame == UtopiaCodec.encode(hello))
        #expect(reported == frame, "send reports the bytes the decoder got")
        let prediction = UtopiaMessage.predictedTargetProb(PredictedTargetProb(timestamp: 7, objID: 3, errorProbability: 0.05))
        try decoder.send(UtopiaCodec.encode(prediction))
        var received: [WireMessage] = []
        #expect(eventually { received += link.receiveWire(); return !received.isEmpty })
        #expect(received == [WireMessage(message: prediction, bytes: UtopiaCodec.encode(prediction))])
        #expect(link.statistics.received == 1)
    }

    @Test("every frame send took either reached the decoder or is listed as unsent: the dropped ones, before the connection completed")
    func sentOrListed() throws {
        let decoder = try FakeDecoder()
        let link = try ZeroMQDecoderLink(endpoint: decoder.endpoint)
        defer { link.close() }
        var reported: [[UInt8]] = []
        var arrived: [[UInt8]] = []
        for i in 0..<200 where arrived.isEmpty {
            reported.append(link.sendEncoded(.heartbeat(Heartbeat(timestamp: Int32(i))))!)
            if let frame = try decoder.receive(timeout: 0.02) { arrived.append(frame) }
        }
        while let frame = try decoder.receive(timeout: 0.3) { arrived.append(frame) }
        var unsent: [WireMessage] = []
        #expect(eventually { unsent += link.receiveUnsent(); return unsent.count + arrived.count >= reported.count })
        #expect(unsent.map(\.bytes) + arrived == reported)
        #expect(link.statistics.unsent == unsent.count && link.statistics.sent == arrived.count)
    }

    @Test("each connection the socket completes is reported once: the first, and a decoder restarted on the same endpoint")
    func connectionsAreReported() throws {
        let first = try FakeDecoder()
        let link = try ZeroMQDecoderLink(endpoint: first.endpoint)
        defer { link.close() }
        var connections = 0
        #expect(eventually { connections += link.receiveConnections(); return connections == 1 })
        first.router.close()
        // The decoder comes back at once on the same endpoint, long before any disconnect timeout.
        let second = try ZeroMQSocket(type: .router)
        defer { second.close() }
        try second.bind(first.endpoint)
        #expect(eventually { connections += link.receiveConnections(); return connections == 2 }, "\(connections)")
        usleep(100_000)
        #expect(connections + link.receiveConnections() == 2, "no connection counted twice")
        #expect(link.statistics.connections == 2)
    }

    @Test("a decoder's frame of 65,539 bytes or more arrives; after one over the cap ends the connection, reconnect() makes a new one")
    func largeFramesAndReconnect() throws {
        try withConnectedLink { link, decoder in
            // The largest message the protocol allows, and a frame of two of them (decoder-bridge.md §2).
            let largest = UtopiaMessage.log(Log(timestamp: 1, message: String(repeating: "a", count: 65_531)))
            try decoder.send(UtopiaCodec.encode(largest) + UtopiaCodec.encode(largest))
            var received: [WireMessage] = []
            #expect(eventually { received += link.receiveWire(); return received.count == 2 })
            #expect(received.map(\.bytes.count) == [65_539, 65_539])
            // A frame over the socket's cap: libzmq ends the connection for good (a protocol error).
            try decoder.send([UInt8](repeating: 0x4C, count: ZeroMQSocket.maximumMessageSize + 1))
            usleep(300_000)
            let hello = UtopiaMessage.heartbeat(Heartbeat(timestamp: 9))
            link.send(hello)
            #expect(try decoder.receive(timeout: 0.5) == nil, "the connection is gone")
            _ = link.receiveConnections()
            (link as any DecoderLink).reconnect()      // as the engine calls it
            var frame: [UInt8]?
            for _ in 0..<100 where frame == nil {
                link.send(hello)
                frame = try decoder.receive(timeout: 0.02)
            }
            #expect(frame == UtopiaCodec.encode(hello))
            #expect(link.receiveConnections() == 1, "the new connection is reported, so the engine greets the decoder again")
        }
    }

    @Test("several messages in one frame are all delivered, in order")
    func concatenated() throws {
        try withConnectedLink { link, decoder in
            let a = UtopiaMessage.heartbeat(Heartbeat(timestamp: 1))
            let b = UtopiaMessage.modeChange(ModeChange(timestamp: 2, newMode: "Prediction.static"))
            try decoder.send(UtopiaCodec.encode(a) + UtopiaCodec.encode(b))
            var received: [WireMessage] = []
            #expect(eventually { received += link.receiveWire(); return received.count == 2 })
            #expect(received.map(\.message) == [a, b])
            #expect(received.map(\.bytes) == [UtopiaCodec.encode(a), UtopiaCodec.encode(b)], "each message gets its own slice of the frame")
        }
    }

    @Test("malformed frames are dropped, counted and reported, and the link goes on")
    func malformed() throws {
        try withConnectedLink { link, decoder in
            try decoder.send([0x48, 0x00])                       // short header
            try decoder.send([0x7A, 0x00, 0x00, 0x00])           // unknown id 'z'
            try decoder.send(UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 5))))
            var problems: [String] = []
            var received: [WireMessage] = []
            #expect(eventually {
                problems += link.receiveProblems()
                received += link.receiveWire()
                return problems.count == 2 && received.count == 1
            })
            #expect(problems.allSatisfy { $0.hasPrefix("malformed frame of") })
            // Each report keeps the frame's bytes, so a recording shows what the decoder sent.
            #expect(problems.first?.hasSuffix("; bytes 4800") == true, "\(problems)")
            #expect(problems.last?.hasSuffix("; bytes 7a000000") == true, "\(problems)")
            #expect(link.statistics.malformed == 2)
        }
    }

    @Test("with no decoder listening, sends are counted as unsent and nothing blocks")
    func noDecoder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nt-none-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = try ZeroMQDecoderLink(endpoint: "ipc://\(folder.path)/decoder.sock")
        var reported: [[UInt8]] = []
        for i in 0..<100 { reported.append(link.sendEncoded(.heartbeat(Heartbeat(timestamp: Int32(i))))!) }
        #expect(eventually { link.statistics.unsent == 100 })
        #expect(link.statistics.queued == 0, "nothing waits once counted unsent")
        let unsent = link.receiveUnsent()
        #expect(unsent.map(\.bytes) == reported, "every frame is listed as not sent, in order, with the bytes send returned")
        #expect(unsent.map(\.message) == (0..<100).map { .heartbeat(Heartbeat(timestamp: Int32($0))) })
        #expect(link.receiveUnsent().isEmpty, "drained once")
        link.close()
        link.close()   // twice is harmless
    }

    @Test("a bad endpoint is refused with libzmq's reason")
    func badConnect() {
        #expect(throws: ZeroMQError.self) { try ZeroMQDecoderLink(endpoint: "bogus://x") }
    }

    /// Runs `body` with a link to a fake decoder once a heartbeat has reached it (the frames that did are
    /// read and dropped); closes the link after.
    private func withConnectedLink(_ body: (ZeroMQDecoderLink, FakeDecoder) throws -> Void) throws {
        let decoder = try FakeDecoder()
        let link = try ZeroMQDecoderLink(endpoint: decoder.endpoint)
        defer { link.close() }
        var frame: [UInt8]?
        for _ in 0..<200 where frame == nil {
            link.send(.heartbeat(Heartbeat(timestamp: 0)))
            frame = try decoder.receive(timeout: 0.02)
        }
        #expect(frame != nil, "the link never reached the decoder")
        while try decoder.receive(timeout: 0.05) != nil {}
        try body(link, decoder)
    }
}

@Suite("Decoder inbox")
struct DecoderInboxTests {
    private func wire(_ message: UtopiaMessage) -> WireMessage {
        WireMessage(message: message, bytes: UtopiaCodec.encode(message))
    }

    @Test("when full, the oldest prediction makes room and is counted")
    func dropsOldestPrediction() {
        var inbox = DecoderInbox(capacity: 3)
        let beat = wire(.heartbeat(Heartbeat(timestamp: 0)))
        func p(_ t: Int32) -> WireMessage { wire(.predictedTargetProb(PredictedTargetProb(timestamp: t, objID: 1, errorProbability: 0.5))) }
        inbox.append(beat)
        inbox.append(p(1))
        inbox.append(p(2))
        inbox.append(p(3))
        #expect(inbox.droppedPredictions == 1)
        #expect(inbox.drain() == [beat, p(2), p(3)])
    }

    @Test("with no prediction queued, the oldest message goes")
    func dropsOldestOther() {
        var inbox = DecoderInbox(capacity: 2)
        let a = wire(.heartbeat(Heartbeat(timestamp: 1)))
        let b = wire(.heartbeat(Heartbeat(timestamp: 2)))
        let c = wire(.heartbeat(Heartbeat(timestamp: 3)))
        inbox.append(a); inbox.append(b); inbox.append(c)
        #expect(inbox.droppedOther == 1)
        #expect(inbox.drain() == [b, c])
    }
}
