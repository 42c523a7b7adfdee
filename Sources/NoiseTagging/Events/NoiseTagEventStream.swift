/// The engine's typed event stream: subscribers are called synchronously on
/// the engine thread, in subscription order.
///
/// ```swift
/// let token = controller.events.subscribe { print($0) }
/// controller.events.unsubscribe(token)
/// ```
public final class NoiseTagEventStream {
    /// A subscription handle.
    public struct Token: Hashable, Sendable { let id: Int }

    private var subscribers: [(Token, (NoiseTagEvent) -> Void)] = []
    private var nextID = 0

    /// Creates an empty stream.
    public init() {}

    /// Calls `handler` for every later event.
    ///
    /// ```swift
    /// controller.events.subscribe { events.append($0) }
    /// ```
    @discardableResult
    public func subscribe(_ handler: @escaping (NoiseTagEvent) -> Void) -> Token {
        nextID += 1
        let token = Token(id: nextID)
        subscribers.append((token, handler))
        return token
    }

    /// Stops calling the handler behind `token`.
    ///
    /// ```swift
    /// controller.events.unsubscribe(token)
    /// ```
    public func unsubscribe(_ token: Token) {
        subscribers.removeAll { $0.0 == token }
    }

    /// Delivers `event` to every subscriber.
    ///
    /// ```swift
    /// stream.emit(NoiseTagEvent(time: 0, kind: .notice("hello")))
    /// ```
    public func emit(_ event: NoiseTagEvent) {
        for (_, handler) in subscribers { handler(event) }
    }
}
