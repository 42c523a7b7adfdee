import NoiseTagging
import UtopiaProtocol

/// A decoder link that encodes every sent message, as a link to a real
/// decoder must, into one reused buffer, and goes no further: nothing is
/// queued or sent, nothing arrives. The frame benchmark measures the
/// engine's work up to the wire format with it; the hand-off to the ZeroMQ
/// I/O thread is what `noisetag bench bridge` measures.
///
/// ```swift
/// let link = EncodingDecoderLink()
/// let controller = NoiseTagController(clock: VirtualClock(), decoderLink: link)
/// ```
final class EncodingDecoderLink: DecoderLink {
    /// Room for the largest Utopia message: header and a 65,535-byte payload.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: UtopiaCodec.headerLength + UtopiaCodec.maximumPayloadLength, alignment: 16)
    private var frameLength = 0
    private var encodedStimulusEvents = 0
    private var refusedMessages = 0

    deinit { buffer.deallocate() }

    /// Bytes of the latest encoded frame (header and payload).
    var lastFrameLength: Int { frameLength }
    /// The latest encoded frame.
    var lastFrame: [UInt8] { Array(buffer[..<frameLength]) }
    /// STIMULUSEVENTs encoded so far.
    var stimulusEvents: Int { encodedStimulusEvents }
    /// Messages the codec refused (too large or inconsistent).
    var refused: Int { refusedMessages }

    func send(_ message: UtopiaMessage) {
        guard let length = UtopiaCodec.encode(message, into: buffer) else {
            refusedMessages += 1
            return
        }
        frameLength = length
        if case .stimulusEvent = message { encodedStimulusEvents += 1 }
    }

    func receive() -> [UtopiaMessage] { [] }
}
