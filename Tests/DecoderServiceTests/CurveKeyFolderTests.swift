import Foundation
import Testing
import ZeroMQTransport

/// CURVE keys as text and as files: Z85 agrees with libzmq, key files are
/// made private and read back unchanged, and every bad file is refused with
/// its path and the reason.
@Suite("CURVE keys and key files")
struct CurveKeyFolderTests {
    /// Runs `body` with a key folder not made yet, inside a fresh temporary folder that is removed after.
    private func withKeyFolder(_ body: (CurveKeyFolder) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nt-keys-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: url) }
        try body(CurveKeyFolder(url: url.appendingPathComponent("keys")))
    }

    private func mode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    /// Runs `body`, which must throw a ``CurveError``, and returns it.
    private func curveError(_ body: () throws -> Void) -> CurveError? {
        do { try body() } catch let error as CurveError { return error } catch { Issue.record("not a CurveError: \(error)") }
        return nil
    }

    @Test("Z85 text is ZeroMQ RFC 32's, libzmq's keys read back to the same text, and any 32 bytes round-trip")
    func z85MatchesTheSpecificationAndLibzmq() throws {
        // RFC 32 (Z85) gives 86 4F D2 6F B5 59 F7 5B as "HelloWorld"; Z85 codes
        // each 4 bytes apart, so four copies are 32 bytes and "HelloWorld" four times.
        let vector: [UInt8] = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]
        let key = try #require(CurveKey(bytes: Array([[UInt8]](repeating: vector, count: 4).joined())))
        #expect(key.z85 == String(repeating: "HelloWorld", count: 4))
        #expect(try CurveKey(z85: key.z85) == key)
        // Keys made by libzmq (zmq_curve_keypair writes Z85 text): read and
        // written back by this codec, libzmq derives the same public key.
        try #require(CurveKeyPair.isAvailable, "this libzmq has CURVE")
        for _ in 0..<20 {
            let pair = try CurveKeyPair.generate()
            #expect(try CurveKeyPair(secretKey: CurveKey(z85: pair.secretKey.z85)).publicKey == pair.publicKey)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try CurveKey(z85: try #require(CurveKey(bytes: bytes)).z85).bytes == bytes)
        }
        #expect(CurveKey(bytes: [1, 2, 3]) == nil)
    }

    @Test("a generated pair re-derives from its secret key; description shows 8 characters only")
    func pairs() throws {
        try #require(CurveKeyPair.isAvailable, "this libzmq has CURVE")
        let pair = try CurveKeyPair.generate()
        #expect(try CurveKeyPair(secretKey: pair.secretKey) == pair)
        #expect(pair.publicKey != pair.secretKey)
        #expect(pair.secretKey.description == String(pair.secretKey.z85.prefix(8)) + "…")
    }

    @Test("key texts that are not keys say why")
    func badTexts() {
        #expect(curveError { _ = try CurveKey(z85: "short") }?.reason == "5 characters, a Z85 key has 40")
        let comma = String(repeating: "a", count: 39) + ","
        #expect(curveError { _ = try CurveKey(z85: comma) }?.reason == "',' at position 40 is not a Z85 character")
        let overflow = "#####" + String(repeating: "0", count: 35)
        #expect(curveError { _ = try CurveKey(z85: overflow) }?.reason == "characters 1-5 are not valid Z85 (over 32 bits)")
    }

    @Test("a new key pair is written with mode 0600 in a 0700 folder and reloaded unchanged")
    func createAndReload() throws {
        try withKeyFolder { folder in
            let (pair, created) = try folder.loadOrCreateKeyPair(named: "decoder")
            #expect(created)
            #expect(try mode(folder.url) == 0o700)
            #expect(try mode(folder.secretKeyFile(named: "decoder")) == 0o600)
            #expect(try mode(folder.publicKeyFile(named: "decoder")) == 0o600)
            let secretText = try String(contentsOf: folder.secretKeyFile(named: "decoder"), encoding: .utf8)
            let publicText = try String(contentsOf: folder.publicKeyFile(named: "decoder"), encoding: .utf8)
            #expect(secretText.contains(pair.secretKey.z85))
            #expect(publicText.hasPrefix(pair.publicKey.z85 + " "))

            let (again, createdAgain) = try folder.loadOrCreateKeyPair(named: "decoder")
            #expect(!createdAgain)
            #expect(again == pair)
            #expect(try folder.loadKeyPair(named: "decoder") == pair)
            #expect(try String(contentsOf: folder.secretKeyFile(named: "decoder"), encoding: .utf8) == secretText)
            #expect(try String(contentsOf: folder.publicKeyFile(named: "decoder"), encoding: .utf8) == publicText)

            try FileManager.default.removeItem(at: folder.publicKeyFile(named: "decoder"))
            #expect(try folder.loadKeyPair(named: "decoder") == pair)
            #expect(try String(contentsOf: folder.publicKeyFile(named: "decoder"), encoding: .utf8) == publicText, "written again")
            #expect(try folder.loadOrCreateKeyPair(named: "engine").keyPair != pair, "each name has its own pair")
        }
    }

    @Test("a secret key file others may read is refused, naming the file, its mode and the fix")
    func looseSecretKey() throws {
        try withKeyFolder { folder in
            _ = try folder.loadOrCreateKeyPair(named: "decoder")
            let file = folder.secretKeyFile(named: "decoder")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let error = curveError { _ = try folder.loadOrCreateKeyPair(named: "decoder") }
            #expect(error?.subject == file.path)
            #expect(error?.reason == "mode 0644 lets other users read the secret key; run chmod 600 \(file.path)")
            try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: file.path)
            #expect(throws: Never.self) { _ = try folder.loadKeyPair(named: "decoder") }
        }
    }

    @Test("a secret key file that is not one Z85 key is refused, naming the file, the line and the reason")
    func badSecretKeyFiles() throws {
        try withKeyFolder { folder in
            _ = try folder.loadOrCreateKeyPair(named: "decoder")
            let file = folder.secretKeyFile(named: "decoder")
            func write(_ text: String) throws {
                try FileManager.default.removeItem(at: file)
                #expect(FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8),
                                                       attributes: [.posixPermissions: 0o600]))
            }
            try write("# a comment\n\n" + String(repeating: "x", count: 39) + "\n")
            #expect(curveError { _ = try folder.loadKeyPair(named: "decoder") }?.description
                    == "\(file.path): line 3: curve key \"\(String(repeating: "x", count: 39))\": 39 characters, a Z85 key has 40")
            try write(String(repeating: "x", count: 39) + "~\n")
            #expect(curveError { _ = try folder.loadKeyPair(named: "decoder") }?.reason.hasSuffix("'~' at position 40 is not a Z85 character") == true)
            try write("# only a comment\n")
            #expect(curveError { _ = try folder.loadKeyPair(named: "decoder") }?.description == "\(file.path): no key in the file")
            let other = try CurveKeyPair.generate()
            try write(other.secretKey.z85 + "\n")
            let mismatch = curveError { _ = try folder.loadKeyPair(named: "decoder") }
            #expect(mismatch?.subject == folder.publicKeyFile(named: "decoder").path)
            #expect(mismatch?.reason.hasPrefix("does not hold the public key of decoder.key") == true)
        }
    }

    @Test("authorized_keys: created empty with mode 0600; keys, labels, comments and blank lines are read")
    func authorizedKeys() throws {
        try withKeyFolder { folder in
            #expect(try folder.authorizedKeys() == [])
            #expect(try mode(folder.authorizedKeysFile) == 0o600)
            #expect(try String(contentsOf: folder.authorizedKeysFile, encoding: .utf8).hasPrefix("# Clients this noisetag decoder lets in"))
            let first = try CurveKeyPair.generate().publicKey
            let second = try CurveKeyPair.generate().publicKey
            // No key starts with # (a first Z85 digit of 84 is over 32 bits), so #-lines are comments even 40 characters long.
            let text = "# lab engines\n\n\(first.z85) lab-laptop\n  \(second.z85)\t# the bench PC\n#\(String(repeating: "0", count: 39))\n"
            try text.write(to: folder.authorizedKeysFile, atomically: false, encoding: .utf8)
            #expect(try folder.authorizedKeys() == [first, second])
        }
    }

    @Test("a bad authorized_keys line or a file others may write is refused, naming the file")
    func badAuthorizedKeys() throws {
        try withKeyFolder { folder in
            _ = try folder.authorizedKeys()
            let key = try CurveKeyPair.generate().publicKey
            try "\(key.z85)\nnot-a-key\n".write(to: folder.authorizedKeysFile, atomically: false, encoding: .utf8)
            #expect(curveError { _ = try folder.authorizedKeys() }?.description
                    == "\(folder.authorizedKeysFile.path): line 2: curve key \"not-a-key\": 9 characters, a Z85 key has 40")
            try "\(key.z85)\n".write(to: folder.authorizedKeysFile, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: folder.authorizedKeysFile.path)
            #expect(curveError { _ = try folder.authorizedKeys() }?.reason.hasPrefix("mode 0666 lets other users add keys") == true)
        }
    }

    @Test("a copied .pub file gives its one key; a file with none or two is refused, naming it")
    func keyFromFile() throws {
        try withKeyFolder { folder in
            let (pair, _) = try folder.loadOrCreateKeyPair(named: "decoder")
            #expect(try CurveKey(contentsOf: folder.publicKeyFile(named: "decoder")) == pair.publicKey)
            let two = folder.url.appendingPathComponent("two.pub")
            try "\(pair.publicKey.z85)\n\(pair.publicKey.z85)\n".write(to: two, atomically: false, encoding: .utf8)
            #expect(curveError { _ = try CurveKey(contentsOf: two) }?.description == "\(two.path): 2 keys in the file, expected one")
            let missing = folder.url.appendingPathComponent("missing.pub")
            #expect(curveError { _ = try CurveKey(contentsOf: missing) }?.subject == missing.path)
        }
    }
}
