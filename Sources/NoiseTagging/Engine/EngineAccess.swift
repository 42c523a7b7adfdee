import Foundation
import Synchronization

/// The lock that lets one thread at a time into an engine: the tick, every
/// public call of ``NoiseTagController``, its settings and its event stream
/// hold it while they run. It is recursive, because app code that the tick
/// calls (a delegate, an action, an observer, a link) may call back into the
/// controller on the same thread.
///
/// One lives in each ``NoiseTagSettings``; a controller uses its settings'
/// lock, so that a setting changed from another thread waits for the tick
/// and the engine's reaction to it runs before the next one.
final class EngineAccess: Sendable {
    private let lock = NSLock()
    /// The thread holding the lock, 0 when none. Only the holder writes its
    /// own id here, and clears it before it unlocks, so a thread that reads
    /// its own id holds the lock: a nested call then runs without locking,
    /// which keeps the tick's many nested reads (settings, events) cheap.
    private let holder = Atomic<UInt>(0)

    /// Takes the lock unless this thread holds it already; give the result
    /// to ``leave(_:)`` (`let entered = access.enter(); defer { access.leave(entered) }`).
    @inline(__always)
    func enter() -> Bool {
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        if holder.load(ordering: .relaxed) == me { return false }
        lock.lock()
        holder.store(me, ordering: .relaxed)
        return true
    }

    /// `body`'s value, read holding the lock: for one-expression getters.
    @inline(__always)
    func read<T>(_ body: () -> T) -> T {
        let entered = enter()
        defer { leave(entered) }
        return body()
    }

    /// Releases the lock when ``enter()`` took it.
    @inline(__always)
    func leave(_ entered: Bool) {
        guard entered else { return }
        holder.store(0, ordering: .relaxed)
        lock.unlock()
    }
}
