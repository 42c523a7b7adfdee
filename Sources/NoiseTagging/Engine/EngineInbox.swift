import Foundation
import Synchronization

/// A bounded, thread-safe queue of work for the engine thread, drained at
/// each tick. Other threads (keyboard, sockets) post here and never touch
/// engine state directly.
///
/// ```swift
/// controller.inbox.post { engine in engine.trialsAreRunning = false }
/// ```
public final class EngineInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(NoiseTagController) -> Void] = []
    /// `items.count`, readable without the lock: the engine looks at it
    /// every tick and takes the lock only when work is waiting.
    private let waiting = Atomic<Int>(0)
    /// The most items held at once; ``post(_:)`` refuses beyond it.
    public let capacity: Int
    private var refusedCount = 0

    /// Creates an inbox holding at most `capacity` items.
    ///
    /// ```swift
    /// let inbox = EngineInbox(capacity: 256)
    /// ```
    public init(capacity: Int = 1024) { self.capacity = max(1, capacity) }

    /// Queues `work`; false (and counted) when the inbox is full.
    ///
    /// ```swift
    /// inbox.post { $0.unblockTrials() }
    /// ```
    @discardableResult
    public func post(_ work: @escaping (NoiseTagController) -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard items.count < capacity else {
            refusedCount += 1
            return false
        }
        items.append(work)
        waiting.store(items.count, ordering: .releasing)
        return true
    }

    /// How many posts were refused because the inbox was full.
    ///
    /// ```swift
    /// if inbox.refused > 0 { warn() }
    /// ```
    public var refused: Int {
        lock.lock()
        defer { lock.unlock() }
        return refusedCount
    }

    /// True when work is waiting; a post that races with this check is seen
    /// at the next tick.
    var hasWork: Bool { waiting.load(ordering: .acquiring) > 0 }

    func drain() -> [(NoiseTagController) -> Void] {
        lock.lock()
        defer { lock.unlock() }
        guard !items.isEmpty else { return [] }
        let drained = items
        items.removeAll(keepingCapacity: true)
        waiting.store(0, ordering: .releasing)
        return drained
    }
}
