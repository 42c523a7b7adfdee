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
    private var buffer: [UInt8] = []
    private var encodedStimulusEvents = 0
    private var refusedMessages = 0

    init(capacity: Int = 4096) { buffer.reserveCapacity(capacity) }

    /// Bytes of the latest encoded frame (header and payload).
    var lastFrameLength: Int { buffer.count }
    /// STIMULUSEVENTs encoded so far.
    var stimulusEvents: Int { encodedStimulusEvents }
    /// Messages the codec refused (too large or inconsistent).
    var refused: Int { refusedMessages }

    func send(_ message: UtopiaMessage) {
        // Encode into a local (the buffer moved out and back): no exclusive
        // access to a stored property stays open across the codec call.
        var frame: [UInt8] = []
        swap(&frame, &buffer)
        frame.removeAll(keepingCapacity: true)
        let encoded = UtopiaCodec.encode(message, into: &frame)
        swap(&frame, &buffer)
        guard encoded else {
            refusedMessages += 1
            return
        }
        if case .stimulusEvent = message { encodedStimulusEvents += 1 }
    }

    func receive() -> [UtopiaMessage] { [] }
}
