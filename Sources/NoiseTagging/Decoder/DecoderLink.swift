import UtopiaProtocol

/// The engine's only way to a decoder: send a message, drain what arrived.
/// A link deals in messages; the bytes are the engine's business (it encodes
/// what a recording's `decoder.csv` logs) or, for a link that puts messages
/// on a wire, the link's (``WireDecoderLink``), so the bytes logged are the
/// bytes that crossed and nothing is encoded twice.
///
/// `DecoderBridge` implements it over ZeroMQ and a Utopia hub's TCP stream;
/// ``InMemoryDecoderLink`` in memory (tests, the embedded decoder, replay).
/// The engine calls every method on its own thread, once or more per tick;
/// an implementation must not block.
public protocol DecoderLink: AnyObject {
    /// Queues `message` for the decoder. Returns false when the link did not
    /// take it (a wire link that could not encode it).
    @discardableResult
    func send(_ message: UtopiaMessage) -> Bool
    /// Every message received since the last call, oldest first.
    func receive() -> [UtopiaMessage]
    /// True when the engine should watch heartbeats on this link and treat
    /// silence as a lost decoder; only then does it send heartbeats, and
    /// SUBSCRIBE with the current mode once the decoder answers. Default:
    /// false (an in-process decoder, told a mode when the app sets one).
    var monitorsLiveness: Bool { get }
    /// Descriptions of received frames that could not be used (malformed),
    /// since the last call. Default: none.
    func receiveProblems() -> [String]
    /// How many connections to a decoder the link completed since the last
    /// call: its first and each reconnection. After the first, the engine
    /// greets the decoder again (SUBSCRIBE, the current MODECHANGE), since a
    /// decoder restarted within `decoderTimeout` never looked lost. Default:
    /// none, for links that need no connection.
    func receiveConnections() -> Int
    /// Starts a new attempt to reach the decoder. The engine calls it when an
    /// attempt got no answer within `timeoutConnecting` and
    /// `timeInBetweenAttemptsToConnect` has passed since (only on a link that
    /// ``monitorsLiveness``). Default: nothing, for links that need no
    /// connection. (The ZeroMQ link starts its connection again: libzmq
    /// retries one that failed by itself, but not one it ended for a
    /// protocol error.)
    func reconnect()
    /// Where the link reaches its decoder (an endpoint such as
    /// `ipc:///run/user/1000/noisetag/decoder.sock` or `utopia://host:port`),
    /// for the engine's notices about it. Default: nil (an in-process link).
    var endpointDescription: String? { get }
}

extension DecoderLink {
    /// Default: no liveness watch.
    public var monitorsLiveness: Bool { false }
    /// Default: no problems.
    public func receiveProblems() -> [String] { [] }
    /// Default: none.
    public func receiveConnections() -> Int { 0 }
    /// Default: nothing.
    public func reconnect() {}
    /// Default: nil.
    public var endpointDescription: String? { nil }
}
