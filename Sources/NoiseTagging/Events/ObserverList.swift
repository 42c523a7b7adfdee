/// Handlers called in the order they were added, each removable by the id
/// it was added with: the one home of the engine's event subscribers and its
/// frame and decoder-traffic observers. Owned by the engine thread.
struct ObserverList<Argument> {
    private var entries: [(id: Int, handler: (Argument) -> Void)] = []
    private var lastID = 0

    /// Handlers currently added.
    var count: Int { entries.count }
    /// True when no handler would be called (callers skip building the argument).
    var isEmpty: Bool { entries.isEmpty }

    /// Adds `handler` last; returns the id that removes it.
    mutating func add(_ handler: @escaping (Argument) -> Void) -> Int {
        lastID += 1
        entries.append((lastID, handler))
        return lastID
    }

    /// Removes the handler added with `id` (and what it captured); an unknown id is ignored.
    mutating func remove(_ id: Int) {
        entries.removeAll { $0.id == id }
    }

    /// The handlers in the order they were added. Iterate it with `for`:
    /// the loop reads the list once, so a handler may add or remove handlers
    /// (they take effect from the next call) without overlapping that read.
    var handlers: LazyMapSequence<[(id: Int, handler: (Argument) -> Void)], (Argument) -> Void> {
        entries.lazy.map(\.handler)
    }
}
