/// Whether the engine hears its decoder.
public enum DecoderConnectionState: String, Codable, Sendable {
    /// No decoder link is set.
    case none
    /// Waiting for the first message from the decoder.
    case connecting
    /// Messages arrive within `decoderTimeout`.
    case connected
    /// Nothing arrived for `decoderTimeout`; trials are stopped and blocked.
    case disconnected
}
