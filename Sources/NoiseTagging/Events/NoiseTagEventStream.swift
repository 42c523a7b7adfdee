/// The engine's typed event stream: subscribers are called synchronously on
/// the thread that runs the engine's tick or call, in subscription order.
/// Any thread may subscribe and unsubscribe. A subscriber written in
/// main-actor code must only be reached from the main thread: tick there,
/// and post other threads' work to the controller's inbox. The app's own calls
/// (`.call` events, which recordings keep so that replay can re-apply them)
/// reach only subscribers that ask for them.
public final class NoiseTagEventStream {
    /// A subscription handle.
    public struct Token: Hashable, Sendable { let id: Int }

    private var subscribers = ObserverList<NoiseTagEvent>()
    /// The lock of the engine that emits here (its own for a stream made alone).
    private let access: EngineAccess

    /// Creates an empty stream.
    public convenience init() { self.init(access: EngineAccess()) }

    /// Creates an empty stream that holds `access` while it runs.
    init(access: EngineAccess) { self.access = access }

    /// Calls `handler` for every later event; for the app's own calls
    /// (``NoiseTagEvent/Kind/call(_:)``) too when `includingAppCalls` is
    /// true (a recorder's view), not by default (an app's view: it knows
    /// what it called).
    @discardableResult
    public func subscribe(includingAppCalls: Bool = false, _ handler: @escaping (NoiseTagEvent) -> Void) -> Token {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard !includingAppCalls else { return Token(id: subscribers.add(handler)) }
        return Token(id: subscribers.add { event in
            if case .call = event.kind { return }
            handler(event)
        })
    }

    /// Stops calling the handler behind `token`.
    public func unsubscribe(_ token: Token) {
        let entered = access.enter()
        defer { access.leave(entered) }
        subscribers.remove(token.id)
    }

    /// Delivers `event` to every subscriber.
    public func emit(_ event: NoiseTagEvent) {
        let entered = access.enter()
        defer { access.leave(entered) }
        for id in subscribers.ids { subscribers.handler(id)?(event) }
    }
}
