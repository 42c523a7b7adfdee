import UtopiaProtocol

/// A decoder link that carries messages as bytes over a transport and says
/// which bytes crossed, so a recording logs what was on the wire: the bytes
/// a message was sent as, the bytes each received message arrived in, and
/// what was dropped before it reached the socket.
///
/// A link implements the three methods here; ``DecoderLink/send(_:)`` and
/// ``DecoderLink/receive()`` come with them.
public protocol WireDecoderLink: DecoderLink {
    /// Encodes `message` once and queues it. Returns the bytes queued,
    /// exactly what goes onto the wire, or nil when it could not be encoded.
    func sendEncoded(_ message: UtopiaMessage) -> [UInt8]?
    /// Every message received since the last call, oldest first, each with
    /// the bytes that carried it.
    func receiveWire() -> [WireMessage]
    /// Messages ``sendEncoded(_:)`` took that were dropped before they
    /// reached the socket (no decoder connected, or more queued than the link
    /// holds), since the last call, oldest first, each with the bytes
    /// ``sendEncoded(_:)`` returned. So a recording's `out` lines minus its
    /// `unsent` lines are exactly what crossed.
    func receiveUnsent() -> [WireMessage]
}

extension WireDecoderLink {
    /// Sends through ``sendEncoded(_:)``.
    @discardableResult
    public func send(_ message: UtopiaMessage) -> Bool { sendEncoded(message) != nil }
    /// The messages of ``receiveWire()``.
    public func receive() -> [UtopiaMessage] { receiveWire().map(\.message) }
}
