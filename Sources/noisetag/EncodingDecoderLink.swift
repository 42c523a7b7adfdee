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
    // Owned by the engine thread, as the controller's state is: no run-time
    // exclusivity checks (see NoiseTagController).
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var encodedStimulusEvents = 0
    @exclusivity(unchecked) private var refusedMessages = 0

    init(capacity: Int = 4096) { buffer.reserveCapacity(capacity) }

    /// Bytes of the latest encoded frame (header and payload).
    var lastFrameLength: Int { buffer.count }
    /// STIMULUSEVENTs encoded so far.
    var stimulusEvents: Int { encodedStimulusEvents }
    /// Messages the codec refused (too large or inconsistent).
    var refused: Int { refusedMessages }

    func send(_ message: UtopiaMessage) {
        buffer.removeAll(keepingCapacity: true)
        guard UtopiaCodec.encode(message, into: &buffer) else {
            refusedMessages += 1
            return
        }
        if case .stimulusEvent = message { encodedStimulusEvents += 1 }
    }

    func receive() -> [UtopiaMessage] { [] }
}
