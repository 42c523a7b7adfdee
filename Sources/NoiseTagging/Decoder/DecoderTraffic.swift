import UtopiaProtocol

/// One message between engine and decoder, as seen by the engine thread.
public struct DecoderTraffic: Sendable {
    /// Which way the message went.
    public enum Direction: String, Sendable, Codable {
        /// Engine to decoder.
        case out
        /// Decoder to engine.
        case `in`
        /// A message sent earlier (`out`) that the link dropped before it
        /// reached the socket: no decoder was connected, or the queue was full.
        case unsent
    }

    /// Engine-clock seconds when the engine sent it, drained it, or learnt it was not sent.
    public let time: Double
    /// Which way it went.
    public let direction: Direction
    /// The message.
    public let message: UtopiaMessage
    /// The bytes that carried it, as the link sent or received them.
    public let bytes: [UInt8]
}
