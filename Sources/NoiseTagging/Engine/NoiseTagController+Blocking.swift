extension NoiseTagController {
    /// Blocks trials: any running trial stops, and no trial starts until this
    /// block is matched by ``unblockTrials()`` or, when `duration` is given,
    /// that many seconds pass. Blocks add up: a block at t=1 for 3 s and one
    /// at t=2 for 4 s keep trials off until t=6. With no argument (the
    /// guide's `blockTrials()`) the block holds until ``unblockTrials()``.
    public func blockTrials(forDuration duration: Double? = nil) {
        let entered = access.enter()
        defer { access.leave(entered) }
        if let duration, !(duration.isFinite && duration >= 0) {
            reportRefused(.invalidBlockDuration(duration))
            return
        }
        emitCall("blockTrials", value: duration.map { String($0) })
        stopTrial(.blocked)
        addBlock(.client, duration: duration)
    }

    /// Ends the client's most recent block that has no duration (a timed
    /// block ends by itself when its time runs out). With no such block in
    /// place, nothing changes and a refused call is reported: an unblock is
    /// never applied to a timed block.
    ///
    /// ```swift
    /// controller.blockTrials()                  // t=1, until unblocked
    /// controller.blockTrials(forDuration: 2)    // t=1.5, until t=3.5
    /// controller.unblockTrials()                // t=2: ends the first; trials may start at t=3.5
    /// ```
    public func unblockTrials() {
        let entered = access.enter()
        defer { access.leave(entered) }
        emitCall("unblockTrials")
        guard blocks.removeLatestUntimed(.client) else {
            reportRefused(.unblockWithoutBlock)
            return
        }
        emit(.unblocked(reason: .client))
    }

    /// Number of blocks now in place, the engine's own included.
    public var activeBlockCount: Int { access.read { blocks.blocks.count } }

    /// Adds a block of `reason` and reports it.
    func addBlock(_ reason: BlockReason, duration: Double?) {
        blocks.add(reason, now: engineNow, duration: duration)
        emit(.blocked(reason: reason, duration: duration))
    }

    /// Removes all engine blocks of `reason`.
    func removeEngineBlocks(_ reason: BlockReason) {
        for _ in 0..<blocks.removeAll(reason) { emit(.unblocked(reason: reason)) }
    }

    func expireBlocks(now: Double) {
        for block in blocks.expire(now: now) { emit(.unblocked(reason: block.reason)) }
    }
}
