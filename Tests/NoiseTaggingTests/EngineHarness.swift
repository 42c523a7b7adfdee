import NoiseTagging
import Testing
import UtopiaProtocol

/// A controller on a virtual clock with an in-memory decoder and an event log.
final class EngineHarness {
    let clock = VirtualClock()
    let link = InMemoryDecoderLink()
    let settings: NoiseTagSettings
    let controller: NoiseTagController
    private(set) var events: [NoiseTagEvent] = []
    let view = NoiseTagView()
    let buttons: [NoiseTagButton]
    let delegate = RecordingDelegate()

    convenience init(buttons count: Int = 4, monitorsLiveness: Bool = false, configure: (NoiseTagSettings) throws -> Void) throws {
        let settings = NoiseTagSettings()
        try configure(settings)
        self.init(buttons: count, settings: settings, monitorsLiveness: monitorsLiveness)
    }

    /// `monitorsLiveness`: the link says it watches the decoder's liveness, so the
    /// controller waits for the decoder to answer and notices when it goes silent.
    init(buttons count: Int = 4, settings: NoiseTagSettings = NoiseTagSettings(), monitorsLiveness: Bool = false) {
        self.settings = settings
        controller = NoiseTagController(clock: clock, settings: settings, decoderLink: link, seed: 42)
        buttons = (1...max(count, 1)).map { NoiseTagButton(identifier: "b\($0)") }
        for button in buttons.prefix(count) { view.add(button) }
        controller.events.subscribe { [unowned self] in self.events.append($0) }
        link.monitorsLiveness = monitorsLiveness
    }

    /// A harness for generic training: `trials` trials of `seconds` of flicker each, the unit
    /// pushed already so that setting the mode is heard by the delegate.
    static func genericTraining(trials: Int, seconds: Double) throws -> EngineHarness {
        let h = try EngineHarness {
            try $0.set(value: .int(trials), for: .nGenericTrainTrials)
            try $0.set(value: .double(seconds), for: .trialDurationGenericTrain)
        }
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        return h
    }

    /// Sets `mode` when one is given, then pushes the unit, turns trials on and
    /// ticks once, so a trial can start now.
    func start(in mode: NoiseTagMode? = nil) {
        if let mode { controller.set(mode: mode) }
        if controller.currentView !== view { controller.push(view: view, forNoiseTaggingWithDelegate: delegate) }
        controller.trialsAreRunning = true
        controller.tick()
    }

    /// Starts and runs half a second into the first trial, checking that it is in progress.
    func runIntoFirstTrial(sourceLocation: SourceLocation = #_sourceLocation) {
        start()
        run(for: 0.5)
        #expect(controller.trialInProgress, sourceLocation: sourceLocation)
    }

    /// Ticks at 60 Hz up to `time` (the last tick exactly at `time`).
    func run(until time: Double, step: Double = 1.0 / 60) {
        while clock.now + step < time {
            clock.advance(by: step)
            controller.tick()
        }
        clock.advance(to: time)
        controller.tick()
    }

    func run(for duration: Double) { run(until: clock.now + duration) }

    /// Runs until `condition` holds (at most `limit` seconds more); returns the time it first held.
    @discardableResult
    func run(untilTrue condition: () -> Bool, limit: Double = 60, step: Double = 1.0 / 120) -> Double? {
        let end = clock.now + limit
        while clock.now < end {
            if condition() { return clock.now }
            clock.advance(by: step)
            controller.tick()
        }
        return condition() ? clock.now : nil
    }

    /// The decoder predicts `objectID` with error probability `perr`, stamped now.
    func predict(objectID: Int, perr: Float) {
        link.deliver(.predictedTargetProb(PredictedTargetProb(timestamp: clock.utopiaTimestamp,
                                                              objID: Int8(objectID), errorProbability: perr)))
    }

    /// The decoder sends a heartbeat, stamped now.
    func heartbeat() {
        link.deliver(.heartbeat(Heartbeat(timestamp: clock.utopiaTimestamp)))
    }

    /// Sets Test mode waiting for a confirmation the decoder never sends, and
    /// checks that no trial starts before `timeout` and that at `timeout` the
    /// mode counts as unconfirmed and the first trial starts.
    func expectUnconfirmedTestModeWaits(_ timeout: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        controller.set(mode: .test, waitTillDecoderConfirms: true)
        start()
        run(until: timeout - 0.01)
        #expect(trialStarts.isEmpty, sourceLocation: sourceLocation)
        run(until: timeout)
        #expect(kinds.contains(.modeConfirmed(mode: .test, confirmed: false)), sourceLocation: sourceLocation)
        #expect(trialStarts.count == 1, sourceLocation: sourceLocation)
    }

    var kinds: [NoiseTagEvent.Kind] { events.map(\.kind) }

    var trialStarts: [NoiseTagEvent] {
        events.filter { if case .trialStarted = $0.kind { return true } else { return false } }
    }

    var trialEnds: [NoiseTagEvent.TrialEnd] {
        events.compactMap { if case .trialEnded(let end) = $0.kind { return end } else { return nil } }
    }

    var presses: [NoiseTagEvent.Press] {
        events.compactMap { if case .press(let press) = $0.kind { return press } else { return nil } }
    }

    var refusals: [String] {
        events.compactMap { if case .refused(_, let reason) = $0.kind { return reason } else { return nil } }
    }
}

/// A delegate that records what it hears and assigns configurable actions.
final class RecordingDelegate: NoiseTagDelegate {
    var assign: (NoiseTagView) -> Void = { _ in }
    var updates = 0
    var noClicks = 0
    var trialEndings: [TrialEnding] = []
    var modeChanges: [NoiseTagMode] = []
    var customTargets: [NoiseTagControl] = []
    var verifyIDs: [String]?
    var started = 0
    var stopped = 0

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        updates += 1
        assign(view)
    }
    func respondToNoClick() { noClicks += 1 }
    func trialEnded(ending: TrialEnding, pressed: (any NoiseTagControl)?) { trialEndings.append(ending) }
    func respondToNoiseTagModeChange(to mode: NoiseTagMode) { modeChanges.append(mode) }
    func nextTarget() -> (any NoiseTagControl)? { customTargets.isEmpty ? nil : customTargets.removeFirst() }
    func thereWillBeANextTarget() -> Bool { !customTargets.isEmpty }
    func idsOfControlsToIncludeAsTargetInVerifyMode() -> [String]? { verifyIDs }
    func trialsWillStartRunning() { started += 1 }
    func trialsStoppedRunning() { stopped += 1 }
    func contextDescription() -> String? { "test unit" }
}
