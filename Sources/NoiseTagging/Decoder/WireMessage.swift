import UtopiaProtocol

/// A Utopia message together with the exact bytes that carried it on the
/// wire (header and payload): what a link sent or received, so recordings
/// hold what crossed the socket and nothing is encoded twice.
///
/// ```swift
/// for received in link.receive() {
///     log(received.bytes)                 // as the decoder sent them
///     handle(received.message)
/// }
/// ```
public struct WireMessage: Equatable, Sendable {
    /// The decoded message.
    public let message: UtopiaMessage
    /// Its frame bytes: id, version, little-endian payload length, payload.
    public let bytes: [UInt8]

    /// Pairs a message with the bytes that carried it.
    public init(message: UtopiaMessage, bytes: [UInt8]) {
        self.message = message
        self.bytes = bytes
    }

    /// Every message of a received frame with its own slice of the frame's
    /// bytes (a frame may carry several messages back to back), or the
    /// reason the frame is malformed.
    ///
    /// ```swift
    /// switch WireMessage.split(frame: bytes) {
    /// case .success(let messages): inbox.append(contentsOf: messages)
    /// case .failure(let error): report(error)
    /// }
    /// ```
    public static func split(frame: [UInt8]) -> Result<[WireMessage], UtopiaDecodingError> {
        switch UtopiaCodec.decodeResult(frame: frame) {
        case .failure(let error):
            return .failure(error)
        case .success(let messages) where messages.count == 1:
            return .success([WireMessage(message: messages[0], bytes: frame)])
        case .success(let messages):
            // The frame decoded whole, so each message's length is its header's.
            var split: [WireMessage] = []
            var offset = 0
            for message in messages {
                let payload = Int(frame[offset + 2]) | (Int(frame[offset + 3]) << 8)
                let length = UtopiaCodec.headerLength + payload
                split.append(WireMessage(message: message, bytes: Array(frame[offset ..< offset + length])))
                offset += length
            }
            return .success(split)
        }
    }
}
