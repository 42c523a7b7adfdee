import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the decoder listens: any ZeroMQ endpoint, by default an `ipc://`
/// Unix socket in a per-user folder only its owner may enter (mode 0700).
public enum DecoderEndpoint {
    /// Why an endpoint cannot be used.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// The endpoint or folder concerned.
        public let subject: String
        /// What is wrong with it.
        public let reason: String
        /// "decoder endpoint SUBJECT: REASON".
        public var description: String { "decoder endpoint \(subject): \(reason)" }

        /// Creates the problem.
        public init(subject: String, reason: String) {
            self.subject = subject
            self.reason = reason
        }
    }

    /// The per-user runtime folder: `$XDG_RUNTIME_DIR/noisetag`, or
    /// `/tmp/noisetag-UID` when XDG_RUNTIME_DIR is unset.
    public static func runtimeFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/noisetag" }
        return "/tmp/noisetag-\(getuid())"
    }

    /// The default endpoint, `ipc://<runtime folder>/decoder.sock`, creating
    /// the folder with mode 0700. Refuses a folder owned by someone else or
    /// open to others.
    public static func defaultEndpoint(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Problem) -> String {
        let folder = runtimeFolder(environment: environment)
        try ensurePrivateFolder(folder)
        return "ipc://\(folder)/decoder.sock"
    }

    /// Checks an endpoint text: empty gives the default; `ipc://`, `tcp://`
    /// and `inproc://` (ZeroMQ) are accepted, and `utopia://HOST:PORT` (a
    /// Utopia hub over TCP) where `acceptingHub` (an engine or client
    /// connecting; a decoder binds, so it passes false); for `ipc://` the
    /// folder must exist.
    public static func resolve(_ text: String, acceptingHub: Bool = true,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(Problem) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return try defaultEndpoint(environment: environment) }
        if trimmed.hasPrefix("ipc://") {
            let path = String(trimmed.dropFirst("ipc://".count))
            guard path.hasPrefix("/") || path.hasPrefix("@") else {
                throw Problem(subject: trimmed, reason: "an ipc:// endpoint needs an absolute path")
            }
            guard path.utf8.count < 100 else {
                throw Problem(subject: trimmed, reason: "the socket path is longer than a Unix socket allows (107 bytes)")
            }
            if path.hasPrefix("/") {
                let folder = (path as NSString).deletingLastPathComponent
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                    throw Problem(subject: trimmed, reason: "folder \(folder) does not exist")
                }
            }
            return trimmed
        }
        if trimmed.hasPrefix("tcp://") {
            let rest = trimmed.dropFirst("tcp://".count)
            guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
                  (1...65535).contains(port) || rest[rest.index(after: colon)...] == "*" else {
                throw Problem(subject: trimmed, reason: "a tcp:// endpoint needs host:port with a port in 1...65535")
            }
            return trimmed
        }
        if trimmed.hasPrefix("inproc://") { return trimmed }
        if trimmed.hasPrefix("utopia://") {
            guard acceptingHub else {
                throw Problem(subject: trimmed, reason: "a decoder binds a ZeroMQ endpoint (ipc://, tcp://, inproc://); a utopia:// address is for engines and clients to connect to")
            }
            _ = try utopiaAddress(trimmed)
            return trimmed
        }
        throw Problem(subject: trimmed, reason: "unknown transport; use ipc://PATH, tcp://HOST:PORT"
                      + (acceptingHub ? ", inproc://NAME or utopia://HOST:PORT" : " or inproc://NAME"))
    }

    /// The port of a Utopia hub when a `utopia://` endpoint names none.
    public static let utopiaDefaultPort: UInt16 = 8400

    /// Reads `utopia://HOST:PORT` (the port defaults to 8400, the hub's; an IPv6 host in brackets).
    public static func utopiaAddress(_ endpoint: String) throws(Problem) -> (host: String, port: UInt16) {
        let text = endpoint.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("utopia://") else {
            throw Problem(subject: text, reason: "a Utopia hub endpoint starts with utopia://")
        }
        var rest = Substring(text.dropFirst("utopia://".count))
        var host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw Problem(subject: text, reason: "an IPv6 host needs its closing ]")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
        } else {
            host = rest.prefix { $0 != ":" }
            rest = rest.dropFirst(host.count)
        }
        guard !host.isEmpty, !host.contains("/") else {
            throw Problem(subject: text, reason: "expected utopia://HOST:PORT")
        }
        if rest.isEmpty { return (String(host), utopiaDefaultPort) }
        guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()), port > 0 else {
            throw Problem(subject: text, reason: "the port must be a number in 1...65535")
        }
        return (String(host), port)
    }

    /// True when something accepts connections on an `ipc://` endpoint's
    /// socket file: a live decoder. libzmq replaces the file of an `ipc://`
    /// endpoint when binding, so a second decoder would silently take the
    /// first one's clients; a stale file left by a dead decoder refuses the
    /// connection and may be bound over. Other transports answer false.
    public static func isListening(_ endpoint: String) -> Bool {
        guard endpoint.hasPrefix("ipc:///") else { return false }
        let path = Array(endpoint.dropFirst("ipc://".count).utf8)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        // C boundary: sockaddr_un.sun_path is a fixed C char array, filled byte by byte (length checked above).
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.enumerated() { raw[i] = byte }
            raw[path.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // C boundary: connect(2) takes the sockaddr_un as a generic sockaddr pointer.
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return connected == 0
    }

    /// Why an `ipc://` endpoint's path may not be bound: something other
    /// than a socket is there (a file, a folder), which libzmq would delete
    /// to bind; nil when the path is free or holds a socket (a stale one is
    /// replaced, a live one is ``isListening(_:)``). Other transports: nil.
    public static func notASocket(_ endpoint: String) -> String? {
        guard endpoint.hasPrefix("ipc:///") else { return nil }
        let path = String(endpoint.dropFirst("ipc://".count))
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFDIR: return "\(path) is a folder: name a socket file inside it"
        default: return "\(path) is a file, not a socket: it would be deleted to bind there (name another path)"
        }
    }

    /// Creates `folder` with mode 0700, or checks that an existing one is
    /// owned by this user and closed to others.
    static func ensurePrivateFolder(_ folder: String) throws(Problem) {
        var info = stat()
        if stat(folder, &info) != 0 {
            let parent = (folder as NSString).deletingLastPathComponent
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw Problem(subject: folder, reason: "cannot create the runtime folder in \(parent): \(String(cString: strerror(errno)))")
            }
            guard stat(folder, &info) == 0 else {
                throw Problem(subject: folder, reason: String(cString: strerror(errno)))
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw Problem(subject: folder, reason: "is not a folder") }
        guard info.st_uid == getuid() else { throw Problem(subject: folder, reason: "belongs to another user") }
        if info.st_mode & 0o077 != 0 {
            guard chmod(folder, 0o700) == 0 else {
                throw Problem(subject: folder, reason: "is open to other users and cannot be made private")
            }
        }
    }
}
