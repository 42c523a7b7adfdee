import Foundation
import Synchronization

/// A bounded, thread-safe queue of work for the engine thread, drained at
/// each tick. Other threads (keyboard, sockets) post here and never touch
/// engine state directly.
public final class EngineInbox: Sendable {
    private struct State {
        var items: [@Sendable (NoiseTagController) -> Void] = []
        var refused = 0
    }
    private let state = Mutex(State())
    /// `items.count`, readable without the lock: the engine looks at it
    /// every tick and takes the lock only when work is waiting.
    private let waiting = Atomic<Int>(0)
    /// The most items held at once; ``post(_:)`` refuses beyond it.
    public let capacity: Int

    /// Creates an inbox holding at most `capacity` items.
    public init(capacity: Int = 1024) { self.capacity = max(1, capacity) }

    /// Queues `work`; false (and counted) when the inbox is full. `work`
    /// comes from another thread and runs later on the engine thread, so it
    /// must be `@Sendable`.
    @discardableResult
    public func post(_ work: @escaping @Sendable (NoiseTagController) -> Void) -> Bool {
        state.withLock { state in
            guard state.items.count < capacity else {
                state.refused += 1
                return false
            }
            state.items.append(work)
            waiting.store(state.items.count, ordering: .releasing)
            return true
        }
    }

    /// How many posts were refused because the inbox was full.
    public var refused: Int { state.withLock { $0.refused } }

    /// True when work is waiting; a post that races with this check is seen
    /// at the next tick.
    var hasWork: Bool { waiting.load(ordering: .acquiring) > 0 }

    func drain() -> [@Sendable (NoiseTagController) -> Void] {
        state.withLock { state in
            guard !state.items.isEmpty else { return [] }
            let drained = state.items
            state.items = []
            waiting.store(0, ordering: .releasing)
            return drained
        }
    }
}
