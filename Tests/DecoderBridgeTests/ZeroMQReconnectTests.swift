import ZeroMQTransport
import Foundation
import Testing
import TestSupport
import NoiseTagging
import UtopiaProtocol
@testable import DecoderBridge

/// The connection settings reach the ZeroMQ link: a decoder that starts
/// after the engine is found at `timeInBetweenAttemptsToConnect`.
@Suite("ZeroMQ reconnect interval", .serialized, .tags(.sockets, .realTime), .outsideWorld)
struct ZeroMQReconnectTests {
    /// Makes a link to a decoder that is not there yet, binds the decoder
    /// 0.2 s later, and returns whether a heartbeat from the link reaches it
    /// within `window` seconds of the bind.
    private func reachesLateDecoder(reconnectEvery interval: Double, window: Double) throws -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nt-reconnect-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = "ipc://\(folder.path)/decoder.sock"
        let settings = NoiseTagSettings()
        try settings.set(value: interval, for: .timeInBetweenAttemptsToConnect)
        let link = try ZeroMQDecoderLink(endpoint: endpoint, settings: settings)
        defer { link.close() }
        usleep(200_000)
        let router = try ZeroMQSocket(type: .router)
        defer { router.close() }
        try router.bind(endpoint)
        return eventually(timeout: window) {
            link.send(.heartbeat(Heartbeat(timestamp: 1)))
            return (try? router.receive(dontWait: true)) != nil
        }
    }

    @Test("timeInBetweenAttemptsToConnect sets how soon the link finds a decoder that starts later")
    func reconnectInterval() throws {
        #expect(try reachesLateDecoder(reconnectEvery: 0.1, window: 1.5))
        #expect(try !reachesLateDecoder(reconnectEvery: 5, window: 1.0), "the next attempt is 5 s after the first failed")
    }

    @Test("seconds become socket-option milliseconds, at least 1, clamped")
    func milliseconds() {
        #expect(ZeroMQDecoderLink.milliseconds(1.5) == 1500)
        #expect(ZeroMQDecoderLink.milliseconds(0) == 1)
        #expect(ZeroMQDecoderLink.milliseconds(.infinity) == Int32.max)
    }
}
