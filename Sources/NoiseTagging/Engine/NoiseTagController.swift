import Foundation
import UtopiaProtocol

/// The app's singleton controller (see ``NoiseTagging``): units, trials,
/// blocking, modes, presses and settings. Tests and replay create their own
/// instances on a ``VirtualClock``.
///
/// The controller is a state machine advanced by ``tick()``; a frame loop
/// calls it every frame. All its methods must be called on the thread that
/// ticks it; other threads post work through ``inbox``.
///
/// The state every tick reads is marked `@exclusivity(unchecked)`: one
/// thread owns it, and no mutating access to it stays open while app code
/// (a control, a delegate, an observer) runs, so the run-time exclusivity
/// check, a thread-local look-up per access, would only cost frame time.
///
/// ```swift
/// let clock = VirtualClock()
/// let controller = NoiseTagController(clock: clock)
/// controller.push(view: menu, forNoiseTaggingWithDelegate: menuDelegate)
/// controller.trialsAreRunning = true
/// clock.advance(by: 1.0 / 60); controller.tick()
/// ```
public final class NoiseTagController {
    /// The engine's clock.
    public let clock: EngineClock
    /// The settings, by title.
    public let settings: NoiseTagSettings
    /// Every engine event, in order.
    public let events = NoiseTagEventStream()
    /// Work posted by other threads, run at the start of each tick.
    public let inbox = EngineInbox()
    /// The decoder link; nil runs without a decoder (touch presses only).
    /// Setting it restarts the connection watch.
    @exclusivity(unchecked) public var decoderLink: DecoderLink? {
        didSet { linkDidChange(from: oldValue) }
    }
    /// ``decoderLink`` called without reference counting: see `callLink`.
    @exclusivity(unchecked) var link: UnretainedDecoderLink?
    /// Calls through `link` in progress (a link's code may run app code).
    @exclusivity(unchecked) var linkCalls = 0
    /// Links replaced while a call on them was in progress, kept alive until it returns.
    @exclusivity(unchecked) var retiredLinks: [DecoderLink] = []
    /// ``clock`` read without reference counting.
    let tickClock: UnretainedClock
    @exclusivity(unchecked) var liveness = DecoderLiveness()
    @exclusivity(unchecked) var frameObservers: [(FrameRecord) -> Void] = []
    @exclusivity(unchecked) var trafficObservers: [(DecoderTraffic) -> Void] = []
    @exclusivity(unchecked) var tickCount = 0
    var recorder: Recorder?
    /// True after the decoder was told `idle` (trials off) and not yet told a mode again.
    var decoderIdle = false

    struct Unit {
        let view: NoiseTagView
        let delegate: NoiseTagDelegate
    }

    @exclusivity(unchecked) var units: [Unit] = []
    @exclusivity(unchecked) var blocks = TrialBlocks()
    @exclusivity(unchecked) var trial: Trial?
    @exclusivity(unchecked) var feedback: PressFeedback?
    var trialCount = 0
    var trialsInMode = 0
    var zeroTrainPressed = false
    var appliedMode: NoiseTagMode
    @exclusivity(unchecked) var modeConfirmation: (mode: NoiseTagMode, deadline: Double)?
    var trainingOrder: [ObjectIdentifier] = []
    var random: SplitMix64
    var lastAssignmentError: String?
    @exclusivity(unchecked) var runningTrials = false
    @exclusivity(unchecked) var stimulus: StimulusFrameState
    /// The codebook flicker codes come from (see `filenameNoiseTags`).
    public internal(set) var codebook: Codebook = .standard
    /// Where ``codebook`` came from: a file path, or "built-in".
    public internal(set) var codebookSource = "built-in"
    private var consoleToken: NoiseTagEventStream.Token?

    /// True only while an update runs; actions can be assigned only then.
    public internal(set) var isUpdating = false

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - clock: the time source (``VirtualClock`` in tests).
    ///   - settings: the settings to use.
    ///   - decoderLink: the decoder, or nil.
    ///   - seed: seeds target choice and code shifts, so runs are reproducible.
    ///
    /// ```swift
    /// let controller = NoiseTagController(clock: VirtualClock(), seed: 7)
    /// ```
    public init(clock: EngineClock = MonotonicClock.shared, settings: NoiseTagSettings = NoiseTagSettings(),
                decoderLink: DecoderLink? = nil, seed: UInt64 = 0x5EED) {
        self.clock = clock
        self.tickClock = UnretainedClock(clock)
        self.settings = settings
        self.decoderLink = decoderLink
        self.link = decoderLink.map { UnretainedDecoderLink($0) }
        self.random = SplitMix64(seed: seed)
        self.appliedMode = NoiseTagMode(rawValue: settings.textFor(.mode)) ?? .test
        self.stimulus = StimulusFrameState(palette: StimulusPalette(settings: settings))
        settings.observe { [weak self] title, value in self?.settingDidChange(title, value) }
        if settings.boolFor(.noiseTaggingPrintsToTheConsole) { mirrorToConsole(true) }
        loadCodebook()
    }

    // MARK: State

    /// The current mode.
    ///
    /// ```swift
    /// if controller.mode.isTraining { showCalibrationHint() }
    /// ```
    public var mode: NoiseTagMode { appliedMode }

    /// Number of units on the stack.
    ///
    /// ```swift
    /// controller.unitCount  // 0 before the first push
    /// ```
    public var unitCount: Int { units.count }

    /// The current unit's view, if any.
    ///
    /// ```swift
    /// let view = controller.currentView
    /// ```
    public var currentView: NoiseTagView? { units.last?.view }

    /// True while any block is in place (the client's or the engine's own).
    ///
    /// ```swift
    /// if controller.trialsAreBlocked { showPaused() }
    /// ```
    public var trialsAreBlocked: Bool { blocks.isBlocked }

    /// True while a trial runs.
    ///
    /// ```swift
    /// controller.trialInProgress
    /// ```
    public var trialInProgress: Bool { trial != nil }

    /// The running trial's phase, nil between trials.
    ///
    /// ```swift
    /// if controller.currentPhase == .flicker { … }
    /// ```
    public var currentPhase: TrialPhase? { trial?.phase }

    /// Number of trials started since the controller was made.
    ///
    /// ```swift
    /// let n = controller.trialsStarted
    /// ```
    public var trialsStarted: Int { trialCount }

    /// True while press or no-press feedback is showing.
    ///
    /// ```swift
    /// controller.isShowingFeedback
    /// ```
    public var isShowingFeedback: Bool { feedback != nil }

    // MARK: Tick

    /// Advances the engine to the clock's current time: runs posted work,
    /// reads decoder messages, ends due blocks, feedback and trial phases,
    /// starts a trial when allowed, and renders the flicker frame (colours
    /// and STIMULUSEVENT). ``FrameLoop`` passes each frame's timing; without
    /// one the frame is taken as due now.
    ///
    /// ```swift
    /// clock.advance(by: 1.0 / 60); controller.tick()
    /// ```
    public func tick(frame: FrameTiming? = nil) {
        if inbox.hasWork { for work in inbox.drain() { work(self) } }
        let now = tickClock.now
        var heard = false
        if let (messages, problems) = callLink({ $0.receive() }) {
            heard = !messages.isEmpty
            for message in messages {
                if !trafficObservers.isEmpty {
                    let traffic = DecoderTraffic(time: now, direction: .in, message: message)
                    for observer in trafficObservers { observer(traffic) }
                }
                handleDecoderMessage(message, now: now)
            }
            for problem in problems { emit(.decoderProblem(problem)) }
        }
        advanceLiveness(now: now, heard: heard)
        // Each step below returns at once when its state is empty; the checks
        // are repeated here to save the calls on most frames.
        if blocks.isBlocked { expireBlocks(now: now) }
        if modeConfirmation != nil { advanceModeConfirmation(now: now) }
        if feedback != nil { advanceFeedback(now: now) }
        if trial != nil { advanceTrial(now: now) }
        if trial == nil { startTrialIfPossible(now: now) }
        let sent = renderFrame(deadline: frame?.deadline ?? now, now: now)
        tickCount += 1
        if !frameObservers.isEmpty {
            let record = FrameRecord(index: frame?.index ?? tickCount - 1, deadline: frame?.deadline ?? now, time: now,
                                     missed: frame?.missed ?? false, trial: trial?.number, phase: trial?.phase,
                                     objIDs: sent ? stimulus.objIDs : [], states: sent ? stimulus.states : [])
            for observer in frameObservers { observer(record) }
        }
    }

    /// Calls `handler` after every tick with what the frame showed (recordings use this).
    ///
    /// ```swift
    /// controller.observeFrames { frames.append($0) }
    /// ```
    public func observeFrames(_ handler: @escaping (FrameRecord) -> Void) {
        frameObservers.append(handler)
    }

    /// Calls `handler` for every message sent to or drained from the decoder.
    ///
    /// ```swift
    /// controller.observeDecoderTraffic { log($0) }
    /// ```
    public func observeDecoderTraffic(_ handler: @escaping (DecoderTraffic) -> Void) {
        trafficObservers.append(handler)
    }

    // MARK: Events

    func emit(_ kind: NoiseTagEvent.Kind) {
        events.emit(NoiseTagEvent(time: clock.now, kind: kind))
    }

    /// Reports a refused call on the event stream.
    func reportRefused(_ error: NoiseTagError) {
        emit(.refused(call: error.call, reason: error.description))
    }

    func send(_ message: UtopiaMessage) {
        guard callLink({ $0.send(message) }) != nil else { return }
        if !trafficObservers.isEmpty {
            let traffic = DecoderTraffic(time: clock.now, direction: .out, message: message)
            for observer in trafficObservers { observer(traffic) }
        }
    }

    /// Runs `body` on the decoder link, or returns nil without one. The
    /// link is called unretained; should a call replace ``decoderLink`` (app
    /// code in a link), the old link is kept until the outermost call returns.
    @inline(__always)
    func callLink<Result>(_ body: (UnretainedDecoderLink) -> Result) -> Result? {
        guard let link else { return nil }
        linkCalls &+= 1
        let result = body(link)
        linkCalls &-= 1
        if linkCalls == 0, !retiredLinks.isEmpty { retiredLinks.removeAll() }
        return result
    }

    /// Restarts the connection watch for a new ``decoderLink``.
    private func linkDidChange(from old: DecoderLink?) {
        if linkCalls > 0, let old { retiredLinks.append(old) }
        link = decoderLink.map { UnretainedDecoderLink($0) }
        liveness = DecoderLiveness()
    }

    private func settingDidChange(_ title: NoiseTagSettingTitles, _ value: NoiseTagSettingValue) {
        emit(.settingChanged(title: title.rawValue, value: value.description))
        switch title {
        case .mode:
            if let newMode = NoiseTagMode(rawValue: value.description), newMode != appliedMode {
                applyModeChange(to: newMode, waitTillDecoderConfirms: false, explanation: "mode setting changed")
            }
        case .noiseTaggingPrintsToTheConsole:
            mirrorToConsole(settings.boolFor(.noiseTaggingPrintsToTheConsole))
        case .filenameNoiseTags:
            loadCodebook()
        case .recordingsEnabled:
            recordingsEnabledDidChange(to: settings.boolFor(.recordingsEnabled))
        default:
            break
        }
    }

    private func mirrorToConsole(_ on: Bool) {
        if let token = consoleToken { events.unsubscribe(token); consoleToken = nil }
        guard on else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        consoleToken = events.subscribe { event in
            guard let data = try? encoder.encode(event) else { return }
            FileHandle.standardError.write(data + Data([0x0A]))
        }
    }
}
