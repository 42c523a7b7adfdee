import Testing
@testable import NoiseTagging

@Suite("Blocking")
struct BlockingTests {
    /// Unblocks once, runs `seconds` on and checks that `trials` trials have started by then.
    private func unblock(_ h: EngineHarness, thenRunFor seconds: Double, expectingTrials trials: Int,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        h.controller.unblockTrials()
        h.run(for: seconds)
        #expect(h.trialStarts.count == trials, sourceLocation: sourceLocation)
    }

    @Test("guide example: block at t=1 for 3 s and at t=2 for 4 s, no trial before t=6")
    func overlappingTimedBlocks() {
        let h = EngineHarness()
        h.settings.resetAll()
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.run(until: 0.999)
        h.controller.blockTrials(forDuration: 3)     // until t=4
        h.run(until: 2)
        h.controller.blockTrials(forDuration: 4)     // until t=6
        h.controller.trialsAreRunning = true
        h.run(until: 5.99)
        #expect(h.trialStarts.isEmpty)
        #expect(h.controller.trialsAreBlocked)
        h.run(until: 6.0)
        #expect(h.trialStarts.count == 1)
        #expect(h.trialStarts.first?.time == 6.0)
    }

    @Test("a block stops a running trial with no feedback")
    func blockStopsTrial() {
        let h = EngineHarness()
        h.runIntoFirstTrial()
        h.controller.blockTrials(forDuration: nil)
        #expect(!h.controller.trialInProgress)
        #expect(h.trialEnds.last?.ending == .stopped(.blocked))
        #expect(!h.controller.isShowingFeedback)
        #expect(h.presses.isEmpty)
        h.run(for: 30)
        #expect(h.trialStarts.count == 1, "an untimed block holds until unblocked")
        unblock(h, thenRunFor: 1.5, expectingTrials: 2)
    }

    @Test("every block needs its own unblock")
    func blocksCount() {
        let h = EngineHarness()
        h.controller.blockTrials(forDuration: nil)
        h.controller.blockTrials(forDuration: nil)
        h.start()
        unblock(h, thenRunFor: 5, expectingTrials: 0)
        unblock(h, thenRunFor: 0.1, expectingTrials: 1)
    }

    @Test("an unblock with nothing blocked is reported and ignored")
    func unblockWithoutBlock() {
        let h = EngineHarness()
        h.controller.unblockTrials()
        #expect(h.refusals.contains { $0.contains("not blocked") })
        #expect(h.controller.activeBlockCount == 0)
    }

    @Test("a negative or infinite duration is refused")
    func badDuration() {
        let h = EngineHarness()
        h.controller.blockTrials(forDuration: -1)
        h.controller.blockTrials(forDuration: .infinity)
        #expect(h.refusals.count == 2)
        #expect(h.controller.activeBlockCount == 0)
    }

    @Test("timeInBetweenTrials is a minimum gap after each trial")
    func gapBetweenTrials() throws {
        let h = try EngineHarness { try $0.set(value: .double(2.5), for: .timeInBetweenTrials) }
        try h.settings.set(value: .text("None"), for: .clickFeedbackMode)
        try h.settings.set(value: .double(0), for: .feedbackDuration)
        try h.settings.set(value: .double(1), for: .maxTestTrialDuration)
        h.start()
        h.run(until: 10)
        let starts = h.trialStarts.map(\.time)
        let ends = h.events.filter { if case .trialEnded = $0.kind { return true } else { return false } }.map(\.time)
        #expect(starts.count >= 3)
        for (end, nextStart) in zip(ends, starts.dropFirst()) {
            #expect(nextStart - end >= 2.5 - 1e-9)
            #expect(nextStart - end < 2.5 + 0.02)
        }
    }

    @Test("unblockTrials() matches a block with no duration: untimed at t=1, 2 s at t=1.5, unblock at t=2, trials again at t=3.5")
    func unblockMatchesUntimedBlock() {
        let h = EngineHarness()
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.trialsAreRunning = true
        h.run(until: 0.5)
        let firstTrials = h.trialStarts.count
        h.run(until: 1)
        h.controller.blockTrials()                      // until unblocked
        h.run(until: 1.5)
        h.controller.blockTrials(forDuration: 2)        // until t=3.5
        h.run(until: 2)
        h.controller.unblockTrials()
        #expect(h.refusals.isEmpty)
        h.run(until: 3.49)
        #expect(h.trialStarts.count == firstTrials, "the timed block still holds")
        h.run(until: 3.5)
        #expect(h.trialStarts.count == firstTrials + 1)
        #expect(h.trialStarts.last?.time == 3.5)
    }

    @Test("unblockTrials() with only a timed client block open is refused and reported, never applied to the timed one")
    func unblockRefusedForTimedBlock() {
        let h = EngineHarness()
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        h.controller.blockTrials(forDuration: 2)
        h.controller.trialsAreRunning = true
        h.run(until: 1)
        h.controller.unblockTrials()
        #expect(h.kinds.contains { if case .refused("unblockTrials()", _) = $0 { return true } else { return false } })
        #expect(h.controller.trialsAreBlocked)
        h.run(until: 1.99)
        #expect(h.trialStarts.isEmpty)
        h.run(until: 2)
        #expect(h.trialStarts.count == 1)
    }
}
