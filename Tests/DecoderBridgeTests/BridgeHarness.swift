import ZeroMQTransport
import Foundation
import DecoderBridge
import UtopiaProtocol

/// A ROUTER socket standing in for the decoder, in a private temporary folder.
final class FakeDecoder {
    let folder: URL
    let endpoint: String
    let router: ZeroMQSocket
    private(set) var peer: [UInt8]?

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nt-bridge-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        endpoint = "ipc://\(folder.path)/decoder.sock"
        router = try ZeroMQSocket(type: .router)
        try router.bind(endpoint)
    }

    deinit {
        router.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The next frame from any peer, waiting at most `timeout` seconds.
    func receive(timeout: Double = 5) throws -> [UInt8]? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let identity = try router.receive(dontWait: true) {
                peer = identity.bytes
                guard identity.more, let body = try router.receive() else { return nil }
                return body.bytes
            }
            usleep(1000)
        }
        return nil
    }

    /// Sends one frame to the last peer heard.
    func send(_ frame: [UInt8]) throws {
        guard let peer else { return }
        try router.send(peer, more: true)
        try router.send(frame)
    }
}

/// Polls `condition` every millisecond for at most `timeout` seconds.
func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}

/// Sends SUBSCRIBE, HEARTBEAT and a calibration MODECHANGE until the decoder
/// confirms the mode or `seconds` pass; returns everything received (empty
/// when the decoder never answered).
func handshake(_ link: ZeroMQDecoderLink, seconds: Double) -> [UtopiaMessage] {
    var received: [UtopiaMessage] = []
    _ = eventually(timeout: seconds) {
        link.send(.subscribe(Subscribe(timestamp: 1, messageIDs: "PFTVCMHLQ")))
        link.send(.heartbeat(Heartbeat(timestamp: 1)))
        link.send(.modeChange(ModeChange(timestamp: 2, newMode: "Calibration.supervised")))
        usleep(20_000)
        received += link.receive()
        return received.contains { if case .modeChange(let m) = $0 { return m.newMode == "Calibration.supervised" } else { return false } }
    }
    return received
}
