import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folder holding CURVE key files (`$NOISETAG_HOME/keys` for the
/// `noisetag` commands): one key pair per name and the server's list of
/// authorized client keys. The folder is created with mode 0700 and every
/// file with mode 0600.
///
/// - `NAME.key`: the secret key, 40 Z85 characters on a line (lines
///   starting with `#` are comments). Refused when group or others may
///   read it.
/// - `NAME.pub`: the public key and a label, on one line; re-derived from
///   the secret key and checked against it on every load.
/// - `authorized_keys`: the clients a server accepts, one Z85 public key per
///   line, optionally followed by a label; blank lines and lines starting
///   with `#` are ignored. Refused when group or others may write it.
///
/// ```swift
/// let folder = CurveKeyFolder(url: URL(fileURLWithPath: "/home/ann/.noisetag/keys"))
/// let (pair, created) = try folder.loadOrCreateKeyPair(named: "decoder")
/// print("decoder public key \(pair.publicKey.z85)\(created ? " (new)" : "")")
/// let clients = try folder.authorizedKeys()
/// ```
public struct CurveKeyFolder: Sendable, Equatable {
    /// The folder.
    public let url: URL

    /// Key files in `url` (created on first use).
    public init(url: URL) { self.url = url.standardizedFileURL }

    /// The secret key file of the pair `name`: `NAME.key`.
    public func secretKeyFile(named name: String) -> URL { url.appendingPathComponent(name + ".key") }

    /// The public key file of the pair `name`: `NAME.pub`.
    public func publicKeyFile(named name: String) -> URL { url.appendingPathComponent(name + ".pub") }

    /// The server's list of accepted client keys: `authorized_keys`.
    public var authorizedKeysFile: URL { url.appendingPathComponent("authorized_keys") }

    /// The key pair `name`, generated and written (mode 0600) when its
    /// secret key file does not exist yet; `created` says which.
    public func loadOrCreateKeyPair(named name: String) throws(CurveError) -> (keyPair: CurveKeyPair, created: Bool) {
        let secretFile = secretKeyFile(named: name)
        if !exists(secretFile) {
            try createFolder()
            let pair = try CurveKeyPair.generate()
            let text = "# noisetag CURVE secret key \"\(name)\": keep it private (mode 0600).\n"
                + "# Its public key is in \(name).pub.\n\(pair.secretKey.z85)\n"
            if try create(secretFile, text) {
                try create(publicKeyFile(named: name), publicKeyLine(pair.publicKey, name: name))
                return (pair, true)
            }
            // Another process made it meanwhile: load theirs.
        }
        return (try loadKeyPair(named: name), false)
    }

    /// The key pair `name` from its files; throws, naming the file and the
    /// reason, when the secret key file is missing, unreadable, open to
    /// others or not one Z85 key, or when `NAME.pub` holds another key. A
    /// missing `NAME.pub` is written again.
    public func loadKeyPair(named name: String) throws(CurveError) -> CurveKeyPair {
        let secretFile = secretKeyFile(named: name)
        let info = try status(of: secretFile)
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0 {
            throw CurveError(subject: secretFile.path,
                             reason: "mode \(Self.octal(mode)) lets other users read the secret key; run chmod 600 \(secretFile.path)")
        }
        guard info.st_uid == getuid() else { throw CurveError(subject: secretFile.path, reason: "belongs to another user") }
        let secrets = try Self.keys(in: Self.read(secretFile), file: secretFile)
        guard secrets.count == 1 else {
            throw CurveError(subject: secretFile.path, reason: secrets.isEmpty ? "no key in the file"
                             : "\(secrets.count) keys in the file, a secret key file holds one")
        }
        let pair = try CurveKeyPair(secretKey: secrets[0])
        let publicFile = publicKeyFile(named: name)
        if exists(publicFile) {
            let stored = try Self.keys(in: Self.read(publicFile), file: publicFile)
            guard stored == [pair.publicKey] else {
                throw CurveError(subject: publicFile.path,
                                 reason: "does not hold the public key of \(secretFile.lastPathComponent) (\(pair.publicKey.z85)); delete it to have it written again")
            }
        } else {
            try create(publicFile, publicKeyLine(pair.publicKey, name: name))
        }
        return pair
    }

    /// The client keys listed in `authorized_keys`, in file order; an
    /// empty list (and the file, with comments saying how to fill it) when
    /// the file does not exist yet. Throws, naming the file, the line and
    /// the reason, for a line that is neither a key nor a comment, and for
    /// a file other users may write.
    public func authorizedKeys() throws(CurveError) -> [CurveKey] {
        let file = authorizedKeysFile
        if !exists(file) {
            try createFolder()
            let text = """
                # Clients this noisetag decoder lets in over CURVE: one Z85 public key
                # per line, optionally followed by a label. Lines starting with # are
                # comments. An engine's key is the first word of its
                # $NOISETAG_HOME/keys/engine.pub.

                """
            if try create(file, text) { return [] }
        }
        let info = try status(of: file)
        let mode = info.st_mode & 0o777
        if mode & 0o022 != 0 {
            throw CurveError(subject: file.path,
                             reason: "mode \(Self.octal(mode)) lets other users add keys; run chmod 600 \(file.path)")
        }
        return try Self.keys(in: Self.read(file), file: file)
    }

    /// The keys in a key file's text: each line's first word, which must be
    /// a Z85 key; lines whose first word starts with `#` and blank lines are
    /// skipped (`#` is a Z85 character, but no key starts with it: its
    /// value, 84, would put the first four bytes over 32 bits). Anything
    /// else throws, naming the file and the line.
    static func keys(in text: String, file: URL) throws(CurveError) -> [CurveKey] {
        var keys: [CurveKey] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).first,
                  !word.hasPrefix("#") else { continue }
            do { keys.append(try CurveKey(z85: String(word))) } catch {
                throw CurveError(subject: file.path, reason: "line \(index + 1): \(error)")
            }
        }
        return keys
    }

    /// "0644".
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func publicKeyLine(_ key: CurveKey, name: String) -> String {
        "\(key.z85) noisetag-\(name)\n"
    }

    private func exists(_ file: URL) -> Bool {
        var info = stat()
        return lstat(file.path, &info) == 0             // C boundary: lstat fills the struct
    }

    private func status(of file: URL) throws(CurveError) -> stat {
        var info = stat()
        // C boundary: stat fills the struct.
        guard stat(file.path, &info) == 0 else { throw CurveError(subject: file.path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CurveError(subject: file.path, reason: "is not a regular file") }
        return info
    }

    static func read(_ file: URL) throws(CurveError) -> String {
        guard FileManager.default.fileExists(atPath: file.path) else { throw CurveError(subject: file.path, reason: "no such file") }
        do { return String(decoding: try Data(contentsOf: file), as: UTF8.self) } catch {
            throw CurveError(subject: file.path, reason: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// Creates the folder (and missing parents) with mode 0700.
    private func createFolder() throws(CurveError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw CurveError(subject: url.path, reason: "cannot create the key folder: \(error.localizedDescription)")
        }
    }

    /// Writes a new file with mode 0600 (never over an existing one); false when it already exists.
    @discardableResult
    private func create(_ file: URL, _ text: String) throws(CurveError) -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return false }
            throw CurveError(subject: file.path, reason: "cannot be created: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
        } catch {
            throw CurveError(subject: file.path, reason: "cannot be written: \(error.localizedDescription)")
        }
        return true
    }
}

extension CurveKey {
    /// The one key in a key file, such as a copied `decoder.pub`: the first
    /// word of its only key line (comments and blank lines skipped). Throws,
    /// naming the file, when it cannot be read or holds no key or several.
    public init(contentsOf file: URL) throws(CurveError) {
        let keys = try CurveKeyFolder.keys(in: CurveKeyFolder.read(file), file: file)
        guard keys.count == 1 else {
            throw CurveError(subject: file.path, reason: keys.isEmpty ? "no key in the file" : "\(keys.count) keys in the file, expected one")
        }
        self = keys[0]
    }
}
