import Foundation

/// A CurveZMQ key, public or secret: 32 bytes, written as 40 characters of
/// Z85 text (ZeroMQ RFC 32), the form `zmq_curve_keypair` produces and key
/// files hold.
///
/// ```swift
/// let server = try CurveKey(z85: "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7")
/// print(server.z85)            // the same 40 characters
/// let listed: Set<CurveKey> = [server]
/// ```
public struct CurveKey: Hashable, Sendable, CustomStringConvertible {
    /// The 32 key bytes.
    public let bytes: [UInt8]

    /// Length of a key, bytes.
    public static let byteCount = 32
    /// Length of a key's Z85 text, characters.
    public static let z85Count = 40

    /// The 85 characters of Z85, in value order.
    static let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".utf8)
    /// Each ASCII byte's Z85 value, or nil for bytes outside the alphabet.
    static let values: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// Reads a key from its 40-character Z85 text (surrounding whitespace is ignored).
    public init(z85 text: String) throws(CurveError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = trimmed.count > 48 ? String(trimmed.prefix(45)) + "…" : trimmed
        let subject = "curve key \"\(shown)\""
        let characters = Array(trimmed.utf8)
        guard trimmed.count == Self.z85Count, characters.count == Self.z85Count else {
            throw CurveError(subject: subject, reason: "\(trimmed.count) characters, a Z85 key has \(Self.z85Count)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for group in stride(from: 0, to: characters.count, by: 5) {
            var value: UInt64 = 0
            for offset in group..<group + 5 {
                guard let digit = Self.values[Int(characters[offset])] else {
                    let character = String(decoding: [characters[offset]], as: UTF8.self)
                    throw CurveError(subject: subject, reason: "'\(character)' at position \(offset + 1) is not a Z85 character")
                }
                value = value * 85 + UInt64(digit)
            }
            guard value <= UInt64(UInt32.max) else {
                throw CurveError(subject: subject, reason: "characters \(group + 1)-\(group + 5) are not valid Z85 (over 32 bits)")
            }
            bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        self.bytes = bytes
    }

    /// A key from its 32 bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The key as 40 characters of Z85 text.
    public var z85: String {
        var text: [UInt8] = []
        text.reserveCapacity(Self.z85Count)
        for group in stride(from: 0, to: bytes.count, by: 4) {
            var value = UInt32(bytes[group]) << 24 | UInt32(bytes[group + 1]) << 16
                | UInt32(bytes[group + 2]) << 8 | UInt32(bytes[group + 3])
            var digits = [UInt8](repeating: 0, count: 5)
            for index in stride(from: 4, through: 0, by: -1) {
                digits[index] = Self.alphabet[Int(value % 85)]
                value /= 85
            }
            text += digits
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first 8 characters of the Z85 text and an ellipsis: enough to
    /// tell keys apart in a log, not enough to leak a secret key.
    public var description: String { String(z85.prefix(8)) + "…" }
}
