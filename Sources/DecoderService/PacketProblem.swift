/// Why an acquisition message was rejected or repaired by ``AcquisitionStream``.
public enum PacketProblem: Hashable, Sendable, CustomStringConvertible {
    /// A DATAPACKET arrived before any DATAHEADER; rejected.
    case dataBeforeHeader
    /// A DATAHEADER with an unusable channel count or sample rate; rejected.
    case invalidHeader
    /// A DATAPACKET row whose channel count disagrees with the header; the packet is rejected.
    case channelCountMismatch
    /// A DATAPACKET stamped earlier than the one before; rejected.
    case timestampWentBack
    /// A DATAPACKET with no samples; ignored.
    case emptyPacket
    /// NaN or infinite samples, replaced by the channel's last finite value; counted per sample.
    case nonFiniteSample

    /// One line for a LOG message.
    public var description: String {
        switch self {
        case .dataBeforeHeader: return "DATAPACKET before any DATAHEADER"
        case .invalidHeader: return "DATAHEADER with no channels or a non-positive sample rate"
        case .channelCountMismatch: return "DATAPACKET channel count disagrees with its DATAHEADER"
        case .timestampWentBack: return "DATAPACKET timestamp went back"
        case .emptyPacket: return "empty DATAPACKET"
        case .nonFiniteSample: return "NaN or infinite sample replaced by the last finite value"
        }
    }
}
