import NoiseTagging
import UtopiaProtocol

/// A decoder link that encodes every sent message, as a link to a real
/// decoder must, and goes no further: nothing is
/// queued or sent, nothing arrives. The frame benchmark measures the
/// engine's work up to the wire format with it; the hand-off to the ZeroMQ
/// I/O thread is what `noisetag bench bridge` measures.
final class EncodingDecoderLink: WireDecoderLink {
    private var encodedStimulusEvents = 0

    /// The latest encoded frame (header and payload).
    private(set) var lastFrame: [UInt8] = []
    /// STIMULUSEVENTs encoded so far.
    var stimulusEvents: Int { encodedStimulusEvents }

    func sendEncoded(_ message: UtopiaMessage) -> [UInt8]? {
        let frame = UtopiaCodec.encode(message)
        lastFrame = frame
        if case .stimulusEvent = message { encodedStimulusEvents += 1 }
        return frame
    }

    func receiveWire() -> [WireMessage] { [] }

    func receiveUnsent() -> [WireMessage] { [] }
}
