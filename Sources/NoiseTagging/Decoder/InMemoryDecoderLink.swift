import UtopiaProtocol

/// A decoder link held in memory: what the engine sends is kept in ``sent``,
/// and ``deliver(_:)`` queues a message as if the decoder had sent it.
public final class InMemoryDecoderLink: DecoderLink {
    /// Everything the engine sent, oldest first.
    public private(set) var sent: [UtopiaMessage] = []
    private var inbound: [UtopiaMessage] = []
    /// Called for each message the engine sends (a simulated decoder hooks in here).
    public var onSend: ((UtopiaMessage) -> Void)?
    /// Set true to have the engine watch heartbeats as for a real decoder.
    public var monitorsLiveness = false
    /// Problems ``receiveProblems()`` hands out next.
    public var pendingProblems: [String] = []

    /// Drains ``pendingProblems``.
    public func receiveProblems() -> [String] {
        defer { pendingProblems.removeAll() }
        return pendingProblems
    }

    /// Connections ``receiveConnections()`` reports next (a replay sets one
    /// where the recording shows the decoder reconnected).
    public var pendingConnections = 0

    /// Drains ``pendingConnections``.
    public func receiveConnections() -> Int {
        defer { pendingConnections = 0 }
        return pendingConnections
    }

    /// Where the engine's notices say the decoder is (nil: not said).
    public var endpointDescription: String?

    /// Creates an empty link.
    public init() {}

    /// Records `message` and passes it to ``onSend``.
    @discardableResult
    public func send(_ message: UtopiaMessage) -> Bool {
        sent.append(message)
        onSend?(message)
        return true
    }

    /// Drains the messages queued with ``deliver(_:)``.
    public func receive() -> [UtopiaMessage] {
        defer { inbound.removeAll(keepingCapacity: true) }
        return inbound
    }

    /// Queues a message from the decoder for the engine's next tick.
    public func deliver(_ message: UtopiaMessage) {
        inbound.append(message)
    }

    /// Forgets what was sent.
    public func clearSent() { sent.removeAll() }

    /// How many times the engine asked for a new connection attempt.
    public private(set) var reconnectRequests = 0

    /// Counts the request (an in-memory link is always reachable).
    public func reconnect() { reconnectRequests += 1 }
}
