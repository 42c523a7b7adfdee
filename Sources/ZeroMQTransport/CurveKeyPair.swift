import CZeroMQ

/// A CurveZMQ key pair: the public key others list or connect to, and the
/// secret key that proves it. Made by libzmq (`zmq_curve_keypair`), or
/// re-derived from a stored secret key (`zmq_curve_public`).
///
/// ```swift
/// let pair = try CurveKeyPair.generate()
/// let same = try CurveKeyPair(secretKey: pair.secretKey)
/// assert(same == pair)
/// print("give the decoder this key: \(pair.publicKey.z85)")
/// ```
public struct CurveKeyPair: Equatable, Sendable {
    /// The public key: safe to share.
    public let publicKey: CurveKey
    /// The secret key: keep it private (key files hold it with mode 0600).
    public let secretKey: CurveKey

    /// True when this libzmq was built with CURVE security (`zmq_has("curve")`).
    public static var isAvailable: Bool { zmq_has("curve") == 1 }

    /// Throws a clear ``CurveError`` when this libzmq has no CURVE security.
    public static func requireAvailable() throws(CurveError) {
        guard isAvailable else { throw unavailable }
    }

    /// The error for a libzmq built without CURVE.
    static var unavailable: CurveError {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)          // C boundary: libzmq writes three ints
        return CurveError(subject: "libzmq \(major).\(minor).\(patch)",
                          reason: "built without CURVE security (zmq_has(\"curve\") is false); install a libzmq built with libsodium")
    }

    /// A new random key pair from libzmq.
    public static func generate() throws(CurveError) -> CurveKeyPair {
        try requireAvailable()
        var publicText = [CChar](repeating: 0, count: CurveKey.z85Count + 1)
        var secretText = [CChar](repeating: 0, count: CurveKey.z85Count + 1)
        // C boundary: libzmq writes two NUL-terminated 40-character texts into the 41-byte arrays.
        guard zmq_curve_keypair(&publicText, &secretText) == 0 else {
            throw CurveError(subject: "zmq_curve_keypair", reason: String(cString: zmq_strerror(zmq_errno())))
        }
        return CurveKeyPair(publicKey: try CurveKey(z85: Self.text(publicText)), secretKey: try CurveKey(z85: Self.text(secretText)))
    }

    /// The pair whose secret key is `secretKey`: libzmq derives the public key.
    public init(secretKey: CurveKey) throws(CurveError) {
        try Self.requireAvailable()
        var publicText = [CChar](repeating: 0, count: CurveKey.z85Count + 1)
        let secretText = Array(secretKey.z85.utf8CString)
        // C boundary: libzmq reads the NUL-terminated secret text and writes the 40-character public text.
        guard zmq_curve_public(&publicText, secretText) == 0 else {
            throw CurveError(subject: "zmq_curve_public", reason: String(cString: zmq_strerror(zmq_errno())))
        }
        self.init(publicKey: try CurveKey(z85: Self.text(publicText)), secretKey: secretKey)
    }

    /// A pair from both keys, as given (no check that they belong together).
    public init(publicKey: CurveKey, secretKey: CurveKey) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// The text before the NUL of a C character array.
    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
