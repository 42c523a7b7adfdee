/// Why a frame's bytes are not a valid sequence of Utopia messages.
///
/// Offsets count bytes from the start of the frame (framing errors) or from
/// the start of the message's payload (`invalidUTF8`). Decoding never reads
/// outside the given bytes; it throws one of these instead.
public enum UtopiaDecodingError: Error, Equatable, Sendable {
    /// The frame has no bytes at all.
    case emptyFrame
    /// Fewer than the 4 header bytes at the start of the frame.
    case truncatedHeader(available: Int)
    /// After one or more complete messages, 1 to 3 bytes remain: too few for a header.
    case trailingBytes(offset: Int, count: Int)
    /// The header's payload length runs past the end of the frame.
    case payloadBeyondFrame(messageID: UInt8, offset: Int, declaredLength: Int, available: Int)
    /// The id byte names no message this codec knows.
    case unknownMessageID(UInt8, offset: Int)
    /// The message is of a version newer than this codec reads.
    case unsupportedVersion(UtopiaMessageType, version: UInt8)
    /// The payload is shorter than the message's fixed fields.
    case payloadTooShort(UtopiaMessageType, minimum: Int, actual: Int)
    /// The payload is longer than its fields and counts say it should be.
    case payloadLengthMismatch(UtopiaMessageType, expected: Int, actual: Int)
    /// A count field asks for more bytes than the payload holds.
    case countOverrunsPayload(UtopiaMessageType, count: Int, needed: Int, available: Int)
    /// A count field is negative.
    case negativeCount(UtopiaMessageType, count: Int)
    /// An array of fixed-size values does not fill its bytes evenly.
    case misalignedValues(UtopiaMessageType, byteCount: Int, stride: Int)
    /// A text field is not valid UTF-8; `byteOffset` is the first bad byte, from the payload start.
    case invalidUTF8(UtopiaMessageType, field: String, byteOffset: Int)
    /// A yes/no byte is neither 0 nor 1.
    case invalidFlag(UtopiaMessageType, field: String, value: UInt8)
}

extension UtopiaDecodingError: CustomStringConvertible {
    /// A sentence naming the message type and the reason.
    public var description: String {
        switch self {
        case .emptyFrame:
            return "empty frame: no Utopia message header"
        case .truncatedHeader(let available):
            return "truncated header: a Utopia message header needs 4 bytes, the frame has \(available)"
        case .trailingBytes(let offset, let count):
            return "\(count) trailing byte\(count == 1 ? "" : "s") at offset \(offset) do not form a message "
                + "(a header needs 4)"
        case .payloadBeyondFrame(let id, let offset, let declared, let available):
            return "\(UtopiaMessageType.label(forID: id)) at offset \(offset) declares a \(declared)-byte payload, "
                + "but only \(available) byte\(available == 1 ? "" : "s") follow the header"
        case .unknownMessageID(let id, let offset):
            return "\(UtopiaMessageType.label(forID: id)) at offset \(offset)"
        case .unsupportedVersion(let type, let version):
            return "\(type.label) version \(version) is not supported (latest known: \(type.latestVersion))"
        case .payloadTooShort(let type, let minimum, let actual):
            return "\(type.label) payload is \(actual) bytes, it needs at least \(minimum)"
        case .payloadLengthMismatch(let type, let expected, let actual):
            return "\(type.label) payload is \(actual) bytes, its fields take exactly \(expected)"
        case .countOverrunsPayload(let type, let count, let needed, let available):
            return "\(type.label) count \(count) needs \(needed) bytes, the payload has \(available) left"
        case .negativeCount(let type, let count):
            return "\(type.label) count is negative (\(count))"
        case .misalignedValues(let type, let byteCount, let stride):
            return "\(type.label) value bytes (\(byteCount)) are not a multiple of \(stride)"
        case .invalidUTF8(let type, let field, let byteOffset):
            return "\(type.label) \(field) is not valid UTF-8 (payload byte \(byteOffset))"
        case .invalidFlag(let type, let field, let value):
            return "\(type.label) \(field) is \(value), it must be 0 or 1"
        }
    }
}
