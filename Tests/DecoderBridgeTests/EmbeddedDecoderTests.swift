import DecoderService
import Foundation
import Testing
import UtopiaProtocol
import ZeroMQTransport
@testable import DecoderBridge
import NoiseTagging
import TestSupport

/// The live decoder embedded in the engine's process: a `DecoderServer` on a
/// thread and the engine's `ZeroMQDecoderLink`, over `inproc://` in one
/// context and over `ipc://`, through the same ZeroMQ code as two processes.
@Suite("Embedded decoder", .serialized, .tags(.sockets, .realTime), .outsideWorld)
struct EmbeddedDecoderTests {
    @Test("over inproc:// the engine's link is greeted and its mode confirmed")
    func inproc() throws {
        let context = ZeroMQContext()
        let server = try DecoderServer(endpoint: "inproc://embedded-decoder", context: context)
        let link = try ZeroMQDecoderLink(endpoint: "inproc://embedded-decoder", context: context)
        let received = handshake(link, seconds: 10)
        #expect(received.contains { if case .heartbeat(let h) = $0 { return h.stateMessage == "decoder ready" } else { return false } })
        #expect(received.contains { if case .modeChange(let m) = $0 { return m.newMode == "Calibration.supervised" } else { return false } })
        link.close()
        server.stop()
        #expect(server.statistics.mode == .calibration)
    }

    @Test("over ipc:// the same, and the server stops while the link is still connected")
    func ipc() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nt-embedded-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = "ipc://\(folder.path)/decoder.sock"
        let server = try DecoderServer(endpoint: endpoint)
        let link = try ZeroMQDecoderLink(endpoint: endpoint)
        defer { link.close() }
        let received = handshake(link, seconds: 10)
        #expect(received.contains { if case .modeChange(let m) = $0 { return m.newMode == "Calibration.supervised" } else { return false } })
        server.stop()
    }
}
