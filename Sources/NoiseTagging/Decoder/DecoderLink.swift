import UtopiaProtocol

/// The engine's only way to a decoder: send a message, drain what arrived.
/// Both directions report the bytes that crossed the link, which is what
/// a recording's `decoder.csv` holds.
///
/// `DecoderBridge` implements it over ZeroMQ; ``InMemoryDecoderLink`` in
/// memory (tests, headless demos); replay from a recording. The engine calls
/// both methods on its own thread, once or more per tick; an implementation
/// must not block.
public protocol DecoderLink: AnyObject {
    /// Encodes `message` (once) and queues it for the decoder. Returns the
    /// bytes queued, exactly what goes onto the wire, or nil when the link
    /// did not take the message (it could not be encoded).
    @discardableResult
    func send(_ message: UtopiaMessage) -> [UInt8]?
    /// Every message received since the last call, oldest first, each with
    /// the bytes that carried it.
    func receive() -> [WireMessage]
    /// True when the engine should watch heartbeats on this link and treat
    /// silence as a lost decoder. Default: false (an in-process decoder).
    var monitorsLiveness: Bool { get }
    /// Descriptions of received frames that could not be used (malformed),
    /// since the last call. Default: none.
    func receiveProblems() -> [String]
    /// Messages ``send(_:)`` took that were dropped before they reached the
    /// socket (no decoder connected, or more queued than the link holds),
    /// since the last call, oldest first, each with the bytes ``send(_:)``
    /// returned. So a recording's `out` lines minus its `unsent` lines are
    /// exactly what crossed. Default: none (a link that never drops).
    func receiveUnsent() -> [WireMessage]
    /// Starts a new attempt to reach the decoder. The engine calls it when an
    /// attempt got no answer within `timeoutConnecting` and
    /// `timeInBetweenAttemptsToConnect` has passed since (only on a link that
    /// ``monitorsLiveness``). Default: nothing, for links that retry by
    /// themselves (ZeroMQ reconnects on its own, at the interval it was given)
    /// or need no connection.
    ///
    /// ```swift
    /// final class SerialDecoderLink: DecoderLink {
    ///     func reconnect() { port.close(); port.open() }
    ///     …
    /// }
    /// ```
    func reconnect()
}

extension DecoderLink {
    /// Default: no liveness watch.
    public var monitorsLiveness: Bool { false }
    /// Default: no problems.
    public func receiveProblems() -> [String] { [] }
    /// Default: nothing dropped.
    public func receiveUnsent() -> [WireMessage] { [] }
    /// Default: nothing.
    public func reconnect() {}
}
