/// The engine's typed event stream: subscribers are called synchronously on
/// the engine thread, in subscription order. The app's own calls
/// (`.call` events, which recordings keep so that replay can re-apply them)
/// reach only subscribers that ask for them.
public final class NoiseTagEventStream {
    /// A subscription handle.
    public struct Token: Hashable, Sendable { let id: Int }

    private var subscribers = ObserverList<NoiseTagEvent>()

    /// Creates an empty stream.
    public init() {}

    /// Calls `handler` for every later event; for the app's own calls
    /// (``NoiseTagEvent/Kind/call(_:)``) too when `includingAppCalls` is
    /// true (a recorder's view), not by default (an app's view: it knows
    /// what it called).
    @discardableResult
    public func subscribe(includingAppCalls: Bool = false, _ handler: @escaping (NoiseTagEvent) -> Void) -> Token {
        guard !includingAppCalls else { return Token(id: subscribers.add(handler)) }
        return Token(id: subscribers.add { event in
            if case .call = event.kind { return }
            handler(event)
        })
    }

    /// Stops calling the handler behind `token`.
    public func unsubscribe(_ token: Token) {
        subscribers.remove(token.id)
    }

    /// Delivers `event` to every subscriber.
    public func emit(_ event: NoiseTagEvent) {
        for handler in subscribers.handlers { handler(event) }
    }
}
