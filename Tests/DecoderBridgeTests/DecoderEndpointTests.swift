import ZeroMQTransport
import Foundation
import Testing
@testable import DecoderBridge

@Suite("Decoder endpoint")
struct DecoderEndpointTests {
    private func temporary() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nt-ep-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the default is ipc:// in XDG_RUNTIME_DIR/noisetag, created with mode 0700")
    func defaultEndpoint() throws {
        let runtime = try temporary()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let endpoint = try DecoderEndpoint.resolve("", environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(endpoint == "ipc://\(runtime.path)/noisetag/decoder.sock")
        let mode = try FileManager.default.attributesOfItem(atPath: runtime.path + "/noisetag")[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("an existing folder open to others is made private")
    func tightens() throws {
        let runtime = try temporary()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let folder = runtime.path + "/noisetag"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        _ = try DecoderEndpoint.defaultEndpoint(environment: ["XDG_RUNTIME_DIR": runtime.path])
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("without XDG_RUNTIME_DIR the folder is /tmp/noisetag-UID")
    func fallback() {
        #expect(DecoderEndpoint.runtimeFolder(environment: [:]) == "/tmp/noisetag-\(getuid())")
    }

    @Test("bad endpoints are refused with the reason", arguments: [
        ("ipc://relative/path.sock", "absolute path"),
        ("ipc:///no/such/folder/decoder.sock", "does not exist"),
        ("tcp://host", "host:port"),
        ("tcp://host:99999", "host:port"),
        ("udp://host:5", "unknown transport"),
    ])
    func refused(endpoint: String, reason: String) {
        do {
            _ = try DecoderEndpoint.resolve(endpoint)
            Issue.record("\(endpoint) accepted")
        } catch {
            #expect(error.description.contains(endpoint))
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test("a decoder, which binds, is refused a hub's utopia:// address and is not offered one for an unknown transport")
    func bindingRefusesHub() throws {
        #expect(try DecoderEndpoint.resolve("utopia://localhost:8400") == "utopia://localhost:8400")
        #expect(throws: DecoderEndpoint.Problem(subject: "utopia://localhost:8400",
                                                reason: "a decoder binds a ZeroMQ endpoint (ipc://, tcp://, inproc://); a utopia:// address is for engines and clients to connect to")) {
            try DecoderEndpoint.resolve("utopia://localhost:8400", acceptingHub: false)
        }
        #expect(throws: DecoderEndpoint.Problem(subject: "foo", reason: "unknown transport; use ipc://PATH, tcp://HOST:PORT or inproc://NAME")) {
            try DecoderEndpoint.resolve("foo", acceptingHub: false)
        }
        #expect(throws: DecoderEndpoint.Problem(subject: "foo",
                                                reason: "unknown transport; use ipc://PATH, tcp://HOST:PORT, inproc://NAME or utopia://HOST:PORT")) {
            try DecoderEndpoint.resolve("foo")
        }
    }

    @Test("tcp and inproc endpoints pass through")
    func accepted() throws {
        #expect(try DecoderEndpoint.resolve("tcp://127.0.0.1:5555") == "tcp://127.0.0.1:5555")
        #expect(try DecoderEndpoint.resolve("inproc://decoder") == "inproc://decoder")
    }

    @Test("a path holding a file or a folder is never bound over (libzmq would delete the file)")
    func somethingElseAtTheSocketPathIsRefused() throws {
        let folder = try temporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: file)
        #expect(DecoderEndpoint.notASocket("ipc://\(file.path)") == "\(file.path) is a file, not a socket: it would be deleted to bind there (name another path)")
        #expect(DecoderEndpoint.notASocket("ipc://\(folder.path)") == "\(folder.path) is a folder: name a socket file inside it")
        #expect(DecoderEndpoint.notASocket("ipc://\(folder.path)/free.sock") == nil)
        #expect(DecoderEndpoint.notASocket("tcp://127.0.0.1:5555") == nil)
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
    }
}
