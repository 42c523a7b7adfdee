/// Why a message cannot be put on the wire as it is.
///
/// Thrown by ``UtopiaCodec/encodeChecked(_:)`` and
/// ``UtopiaCodec/encodeChecked(_:into:)``; the non-throwing `encode` functions
/// write nothing for such a message instead (never a partial or truncated frame).
public enum UtopiaEncodingError: Error, Equatable, Sendable {
    /// The payload exceeds ``UtopiaCodec/maximumPayloadLength`` (65,535 bytes, the uint16 length field).
    case payloadTooLarge(UtopiaMessageType, length: Int)
    /// More objects than the uint8 count field holds (255).
    case tooManyObjects(UtopiaMessageType, count: Int)
    /// The object ids and their per-object values differ in number.
    case mismatchedCounts(UtopiaMessageType, objIDs: Int, values: Int)
    /// DATAPACKET sample rows have different channel counts.
    case raggedSamples(row: Int, channels: Int, expected: Int)
    /// DATAPACKET rows have no channels: the receiver could not recover the sample count.
    case samplesWithoutChannels(sampleCount: Int)
    /// A DATAHEADER label contains the ", " separator, so it would not read back as one label.
    case labelContainsSeparator(index: Int)
}

extension UtopiaEncodingError: CustomStringConvertible {
    /// A sentence naming the message type and the reason.
    public var description: String {
        switch self {
        case .payloadTooLarge(let type, let length):
            return "\(type.label) payload would be \(length) bytes, the maximum is \(UtopiaCodec.maximumPayloadLength)"
        case .tooManyObjects(let type, let count):
            return "\(type.label) has \(count) objects, the uint8 count field holds at most 255"
        case .mismatchedCounts(let type, let objIDs, let values):
            return "\(type.label) has \(objIDs) object ids but \(values) values"
        case .raggedSamples(let row, let channels, let expected):
            return "\(UtopiaMessageType.dataPacket.label) sample row \(row) has \(channels) channels, "
                + "row 0 has \(expected)"
        case .samplesWithoutChannels(let sampleCount):
            return "\(UtopiaMessageType.dataPacket.label) has \(sampleCount) samples with no channels"
        case .labelContainsSeparator(let index):
            return "\(UtopiaMessageType.dataHeader.label) label \(index) contains the \", \" separator"
        }
    }
}
