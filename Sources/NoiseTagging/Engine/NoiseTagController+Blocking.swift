extension NoiseTagController {
    /// Blocks trials: any running trial stops, and no trial starts until this
    /// block is matched by ``unblockTrials()`` or, when `duration` is given,
    /// that many seconds pass. Blocks add up: a block at t=1 for 3 s and one
    /// at t=2 for 4 s keep trials off until t=6.
    ///
    /// ```swift
    /// controller.blockTrials(forDuration: 3)
    /// controller.blockTrials(forDuration: nil)  // until unblockTrials()
    /// ```
    public func blockTrials(forDuration duration: Double?) {
        if let duration, !(duration.isFinite && duration >= 0) {
            reportRefused(.invalidBlockDuration(duration))
            return
        }
        stopTrial(.blocked)
        addBlock(.client, duration: duration)
    }

    /// Ends the client's most recent block still in place. With no client
    /// block in place, nothing changes and a refused call is reported.
    ///
    /// ```swift
    /// controller.unblockTrials()
    /// ```
    public func unblockTrials() {
        guard blocks.removeLatest(.client) else {
            reportRefused(.unblockWithoutBlock)
            return
        }
        emit(.unblocked(reason: .client))
    }

    /// Number of blocks now in place, the engine's own included.
    ///
    /// ```swift
    /// controller.activeBlockCount
    /// ```
    public var activeBlockCount: Int { blocks.blocks.count }

    /// Adds a block of `reason` and reports it.
    func addBlock(_ reason: BlockReason, duration: Double?) {
        blocks.add(reason, now: clock.now, duration: duration)
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
