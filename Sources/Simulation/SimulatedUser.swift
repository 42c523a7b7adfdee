/// Where a simulated person looks over time: at one object (by its Utopia
/// object ID) or at nothing. The amplifier asks it what is looked at when it
/// renders each sample.
///
/// ```swift
/// var user = SimulatedUser()
/// user.look(at: 3, from: 1_000)     // from t = 1000 ms, looks at object 3
/// user.look(at: nil, from: 5_200)   // then at nothing (idle)
/// user.target(at: 2_000)            // 3
/// ```
public struct SimulatedUser: Sendable, Equatable {
    private var changes: [(time: Double, target: UInt8?)] = []

    /// A user who looks at nothing until told otherwise.
    public init() {}

    /// From `time` (milliseconds on the wire clock) on, look at `target`
    /// (`nil`: at nothing). Changes must be given in time order.
    public mutating func look(at target: UInt8?, from time: Double) {
        precondition(changes.last.map { $0.time <= time } ?? true, "gaze changes come in time order")
        changes.append((time, target))
    }

    /// The object looked at `time` ms, or `nil`.
    public func target(at time: Double) -> UInt8? {
        var result: UInt8? = nil
        for change in changes {
            if change.time > time { break }
            result = change.target
        }
        return result
    }

    /// Forgets gaze changes before `time` except the one in force then.
    public mutating func forget(before time: Double) {
        guard let lastPast = changes.lastIndex(where: { $0.time <= time }), lastPast > 0 else { return }
        changes.removeFirst(lastPast)
    }

    public static func == (lhs: SimulatedUser, rhs: SimulatedUser) -> Bool {
        lhs.changes.count == rhs.changes.count
            && zip(lhs.changes, rhs.changes).allSatisfy { $0.time == $1.time && $0.target == $1.target }
    }
}
