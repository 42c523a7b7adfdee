import NoiseTagging
import UtopiaProtocol

/// A decoder link that does what the ZeroMQ link does before the socket:
/// encodes every sent message into one reused byte buffer. Nothing arrives.
///
/// ```swift
/// let link = EncodingDecoderLink()
/// let controller = NoiseTagController(clock: VirtualClock(), decoderLink: link)
/// ```
final class EncodingDecoderLink: DecoderLink {
    /// The latest encoded frame (header and payload).
    private(set) var buffer: [UInt8] = []
    /// STIMULUSEVENTs encoded so far.
    private(set) var stimulusEvents = 0
    /// Messages the codec refused (too large or inconsistent).
    private(set) var refused = 0

    init(capacity: Int = 4096) { buffer.reserveCapacity(capacity) }

    func send(_ message: UtopiaMessage) {
        buffer.removeAll(keepingCapacity: true)
        guard UtopiaCodec.encode(message, into: &buffer) else {
            refused += 1
            return
        }
        if case .stimulusEvent = message { stimulusEvents += 1 }
    }

    func receive() -> [UtopiaMessage] { [] }
}
