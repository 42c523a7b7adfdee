import DecoderBridge
import DecoderService
import Foundation
import Testing
import TestSupport
import UtopiaProtocol
import ZeroMQTransport

/// A link or decoder server let go of without closing it is freed: its I/O
/// thread holds what it works on, not its owner, and the owner's `deinit`
/// stops and joins the thread.
@Suite("Link lifetime", .tags(.sockets), .outsideWorld)
struct LinkLifetimeTests {
    @Test("a ZeroMQ link released without close() is freed, its thread joined")
    func zeroMQLinkIsFreed() throws {
        weak var released: ZeroMQDecoderLink?
        do {
            let link = try ZeroMQDecoderLink(endpoint: "ipc:///tmp/nt-nobody-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock")
            released = link
            link.send(.heartbeat(Heartbeat(timestamp: 1)))
        }
        #expect(released == nil)
    }

    @Test("a Utopia TCP link released without close() is freed, its thread joined")
    func utopiaLinkIsFreed() throws {
        weak var released: UtopiaTCPDecoderLink?
        do {
            let link = try UtopiaTCPDecoderLink(endpoint: "utopia://127.0.0.1:9", reconnectInterval: 0.05, connectTimeout: 0.05)
            released = link
            link.send(.heartbeat(Heartbeat(timestamp: 1)))
            usleep(20_000)     // the I/O thread is running its loop
        }
        #expect(released == nil)
    }

    @Test("a decoder server released without stop() is freed, its thread joined")
    func decoderServerIsFreed() throws {
        let endpoint = "ipc:///tmp/nt-server-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        weak var released: DecoderServer?
        do {
            let server = try DecoderServer(endpoint: endpoint)
            released = server
        }
        #expect(released == nil)
    }

    @Test("ending a context while a link made in it is open gives up after the wait instead of waiting for ever; closed, it ends")
    func contextWithAnOpenLink() throws {
        let context = ZeroMQContext()
        let link = try ZeroMQDecoderLink(endpoint: "inproc://nobody-\(UInt32.random(in: 0...UInt32.max))", context: context)
        let start = Date()
        #expect(context.terminate(waitingUpTo: 0.2) == false)
        #expect(Date().timeIntervalSince(start) < 5)
        link.close()
        #expect(context.terminate())
        #expect(context.terminate(), "a second call does nothing")
    }
}
