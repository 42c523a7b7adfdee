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

    /// The ids of the handlers added so far, in order: one call's list. Call
    /// through ``handler(_:)`` on the list as it stands, so that a handler
    /// removed by another during the call is not called, and one added during
    /// it is first called by the next:
    /// `for id in list.ids { list.handler(id)?(argument) }`, reading `list` anew each time.
    var ids: [Int] { entries.map(\.id) }

    /// The handler added with `id`, or nil once it is removed.
    func handler(_ id: Int) -> ((Argument) -> Void)? {
        entries.first { $0.id == id }?.handler
    }
}
