import DecoderService
import Foundation
import NoiseTagging
import Testing
import UtopiaProtocol
import ZeroMQTransport
import TestSupport
@testable import DecoderBridge

/// The engine's `ZeroMQDecoderLink` with CurveZMQ against the reference
/// decoder with CURVE on `tcp://127.0.0.1`: with an authorized key the
/// handshake completes and messages flow both ways; with an unlisted key or
/// without CURVE nothing gets through. Bounded waits; servers and links
/// are stopped at the end of each test.
@Suite("CURVE engine link", .serialized, .tags(.sockets, .realTime), .outsideWorld)
struct CurveLinkTests {
    /// A CURVE decoder on a free loopback port that lets in `clients`.
    private func decoder(letting clients: Set<CurveKey>) throws -> (DecoderServer, String, CurveKey) {
        let endpoint = "tcp://127.0.0.1:\(try freeLoopbackPort())"
        let keys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: clients)
        return (try DecoderServer(endpoint: endpoint, curve: keys), endpoint, keys.keyPair.publicKey)
    }

    @Test("with an authorized key the engine is greeted and its mode confirmed over CURVE")
    func authorized() throws {
        let engine = try CurveKeyPair.generate()
        let (server, endpoint, serverKey) = try decoder(letting: [engine.publicKey])
        let link = try ZeroMQDecoderLink(endpoint: endpoint, curve: CurveClientKeys(keyPair: engine, serverKey: serverKey))
        let received = handshake(link, seconds: 10)
        link.close()
        server.stop()
        #expect(received.contains { if case .heartbeat(let h) = $0 { return h.stateMessage == "decoder ready" } else { return false } })
        #expect(received.contains { if case .modeChange(let m) = $0 { return m.newMode == "Calibration.supervised" } else { return false } })
        #expect(server.statistics.mode == .calibration)
    }

    @Test("with an unlisted key, or without CURVE, nothing reaches the decoder and nothing comes back")
    func refused() throws {
        let listed = try CurveKeyPair.generate()
        let (server, endpoint, serverKey) = try decoder(letting: [listed.publicKey])
        defer { server.stop() }
        let stranger = try ZeroMQDecoderLink(endpoint: endpoint, curve: CurveClientKeys(keyPair: try CurveKeyPair.generate(), serverKey: serverKey))
        defer { stranger.close() }
        let plain = try ZeroMQDecoderLink(endpoint: endpoint)
        defer { plain.close() }
        #expect(handshake(stranger, seconds: 1.5).isEmpty)
        #expect(handshake(plain, seconds: 1).isEmpty)
        #expect(server.statistics.received == 0)
        #expect(server.statistics.peers == 0)
        #expect(stranger.statistics.sent == 0, "with ZMQ_IMMEDIATE nothing is queued for a connection that never completes")
    }

    @Test("the settings initializer takes the keys too")
    func settingsInitializer() throws {
        let engine = try CurveKeyPair.generate()
        let (server, endpoint, serverKey) = try decoder(letting: [engine.publicKey])
        defer { server.stop() }
        let link = try ZeroMQDecoderLink(endpoint: endpoint, settings: NoiseTagSettings(),
                                         curve: CurveClientKeys(keyPair: engine, serverKey: serverKey))
        defer { link.close() }
        #expect(!handshake(link, seconds: 10).isEmpty)
    }

    @Test("CurveClientKeys.standard makes the engine pair in $NOISETAG_HOME/keys once, with mode 0600, then reuses it")
    func standardKeys() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nt-home-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["NOISETAG_HOME": home.path]
        let serverKey = try CurveKeyPair.generate().publicKey
        let first = try CurveClientKeys.standard(serverKey: serverKey, environment: environment)
        let second = try CurveClientKeys.standard(serverKey: serverKey, environment: environment)
        #expect(first == second)
        #expect(first.serverKey == serverKey)
        let folder = CurveKeyFolder.standard(environment: environment)
        #expect(folder.url.path == home.appendingPathComponent("keys").path)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.secretKeyFile(named: "engine").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

/// Which bind endpoints other machines can reach, and the warning for them.
@Suite("Decoder endpoint exposure")
struct DecoderEndpointExposureTests {
    @Test("loopback hosts, ipc:// and inproc:// stay on this machine; anything else on tcp:// does not")
    func reachability() {
        for endpoint in ["tcp://127.0.0.1:5555", "tcp://127.1.2.3:5555", "tcp://localhost:5555", "tcp://[::1]:5555",
                         "tcp://lo:5555", "ipc:///tmp/x/decoder.sock", "inproc://decoder"] {
            #expect(!DecoderEndpoint.isReachableFromOtherMachines(endpoint), "\(endpoint)")
            #expect(DecoderEndpoint.plainNetworkWarning(for: endpoint) == nil)
        }
        for endpoint in ["tcp://*:5555", "tcp://0.0.0.0:5555", "tcp://10.0.0.5:5555", "tcp://eth0:5555", "tcp://[::]:5555",
                         "tcp://decoder.lab:5555", "tcp://127.0.0.1.example.org:5555"] {
            #expect(DecoderEndpoint.isReachableFromOtherMachines(endpoint), "\(endpoint)")
        }
        let warning = DecoderEndpoint.plainNetworkWarning(for: "tcp://*:5555") ?? ""
        #expect(warning.hasPrefix("tcp://*:5555 accepts connections from other machines without CurveZMQ"))
        #expect(warning.contains("--curve"))
    }
}
