import Testing
@testable import NoiseTagging

/// The programming guide's own spellings compile and do what the guide says.
@Suite("Guide spellings")
struct GuideSpellingTests {
    @Test("blockTrials() with no argument blocks until unblockTrials()")
    func blockTrialsWithoutArgument() {
        let h = EngineHarness()
        h.start()
        #expect(h.controller.trialInProgress)
        h.controller.blockTrials()
        #expect(!h.controller.trialInProgress)
        h.run(until: 60, step: 0.25)
        #expect(h.trialStarts.count == 1)
        h.controller.unblockTrials()
        h.run(for: 1.1)
        #expect(h.trialStarts.count == 2)
    }

    @Test("set(value: 2, for:) takes plain Int, Double, Bool and String values")
    func plainValues() throws {
        let settings = NoiseTagSettings()
        try settings.set(value: 2, for: .framesPerBit)
        try settings.set(value: 0.95, for: .certaintyRequiredForPress)
        try settings.set(value: 2, for: .timeInBetweenTrials)
        try settings.set(value: true, for: .disableNoClicks)
        try settings.set(value: "NonselectedGray", for: .clickFeedbackMode)
        #expect(settings.value(for: .framesPerBit) == .int(2))
        #expect(settings.doubleFor(.certaintyRequiredForPress) == 0.95)
        #expect(settings.value(for: .timeInBetweenTrials) == .double(2), "an integer for a number setting becomes a number")
        #expect(settings.boolFor(.disableNoClicks))
        #expect(settings.textFor(.clickFeedbackMode) == "NonselectedGray")
        #expect(settings.explicitlySet.isSuperset(of: [.framesPerBit, .certaintyRequiredForPress, .disableNoClicks]))
    }

    @Test("a plain value of the wrong type or out of range is refused like any other")
    func plainValueErrors() {
        let settings = NoiseTagSettings()
        #expect(throws: NoiseTagSettingsError.self) { try settings.set(value: 0, for: .framesPerBit) }
        #expect(throws: NoiseTagSettingsError.self) { try settings.set(value: "yes", for: .framesPerBit) }
        #expect(settings.intFor(.framesPerBit) == 1)
    }
}
