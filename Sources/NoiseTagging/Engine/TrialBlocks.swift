/// The blocks on trials now in place. No trial starts while any block
/// remains; each block ends on its own unblock or when its duration runs out.
struct TrialBlocks {
    struct Block {
        let reason: BlockReason
        let until: Double?
    }

    private(set) var blocks: [Block] = []

    var isBlocked: Bool { !blocks.isEmpty }

    /// Adds a block; nil duration waits for an explicit unblock.
    mutating func add(_ reason: BlockReason, now: Double, duration: Double?) {
        blocks.append(Block(reason: reason, until: duration.map { now + $0 }))
    }

    /// Removes the most recent block of `reason`; false when there is none.
    mutating func removeLatest(_ reason: BlockReason) -> Bool {
        guard let index = blocks.lastIndex(where: { $0.reason == reason }) else { return false }
        blocks.remove(at: index)
        return true
    }

    /// Removes the most recent block of `reason` that has no duration;
    /// false when there is none (timed blocks end only by expiring).
    mutating func removeLatestUntimed(_ reason: BlockReason) -> Bool {
        guard let index = blocks.lastIndex(where: { $0.reason == reason && $0.until == nil }) else { return false }
        blocks.remove(at: index)
        return true
    }

    /// Removes every block of `reason`; returns how many there were.
    mutating func removeAll(_ reason: BlockReason) -> Int {
        let before = blocks.count
        blocks.removeAll { $0.reason == reason }
        return before - blocks.count
    }

    /// Removes and returns the timed blocks whose time has come.
    mutating func expire(now: Double) -> [Block] {
        let due = blocks.filter { ($0.until ?? .infinity) <= now }
        if !due.isEmpty { blocks.removeAll { ($0.until ?? .infinity) <= now } }
        return due
    }
}
