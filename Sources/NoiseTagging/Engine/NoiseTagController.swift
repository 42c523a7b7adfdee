import Foundation
import IOThreads
import UtopiaProtocol

/// The app's singleton controller (see ``NoiseTagging``): units, trials,
/// blocking, modes, presses and settings. Tests and replay create their own
/// instances on a ``VirtualClock``.
///
/// The controller is a state machine advanced by ``tick()``; a frame loop
/// calls it every frame. Any thread may call it: the tick and every call
/// hold one lock (its settings' lock), so a call from another thread waits
/// for the running tick and is applied whole, between ticks. Work that
/// should run at the start of the next tick instead, without waiting, is
/// posted through ``inbox``. Views and controls stay the app's: change them
/// from the thread that ticks, inside an update, or in posted work. App
/// code runs on the thread whose tick or call set it off.
///
/// App code (a control, a delegate, an observer, a decoder link) may call
/// back into the controller from any hook; the engine holds no access to
/// its own state open while that code runs, so whatever the hook does is
/// applied in order and the engine ends in a consistent state.
///
/// ```swift
/// let clock = VirtualClock()
/// let controller = NoiseTagController(clock: clock)
/// controller.push(view: menu, forNoiseTaggingWithDelegate: menuDelegate)
/// controller.trialsAreRunning = true
/// clock.advance(by: 1.0 / 60); controller.tick()
/// ```
// @unchecked: every stored property is read and written only while `access` is held (see EngineAccess).
public final class NoiseTagController: @unchecked Sendable {
    /// The engine's clock.
    public let clock: EngineClock
    /// The settings, by title.
    public let settings: NoiseTagSettings
    /// Every engine event, in order.
    public let events: NoiseTagEventStream
    /// The lock the tick and every public call hold: ``settings``' own.
    let access: EngineAccess
    /// Work posted by other threads, run at the start of each tick.
    public let inbox = EngineInbox()
    /// The decoder link; nil runs without a decoder (touch presses only).
    /// Setting it restarts the connection watch.
    /// A link replaced from inside one of its own calls stays alive until
    /// that call returns; the next call goes to the new link.
    public var decoderLink: DecoderLink? {
        get { access.read { link } }
        set {
            let entered = access.enter()
            defer { access.leave(entered) }
            link = newValue
            liveness = DecoderLiveness()
            wireLink = newValue as? WireDecoderLink
        }
    }
    /// ``decoderLink``'s store.
    var link: DecoderLink?
    /// ``decoderLink`` when it reports the bytes that crossed; set with it.
    var wireLink: WireDecoderLink?
    var liveness = DecoderLiveness()
    var frameObservers = ObserverList<FrameRecord>()
    /// The index of the frame the frame observers last heard of.
    var lastObservedFrame: Int?
    var trafficObservers = ObserverList<DecoderTraffic>()
    var recorder: Recorder?
    /// True after the decoder was told `idle` (trials off) and not yet told a mode again.
    var decoderIdle = false

    struct Unit {
        let view: NoiseTagView
        let delegate: NoiseTagDelegate
    }

    var units: [Unit] = []
    var blocks = TrialBlocks()
    var trial: Trial?
    var feedback: PressFeedback?
    var trialCount = 0
    var trialsInMode = 0
    var zeroTrainPressed = false
    /// The last ended trials by the timestamp of their NEWTARGET, for a
    /// decoder's SELECTIONREVISED: number, controls by object ID, pressed control.
    var endedTrials: [Int32: (number: Int, controls: [Int: String], pressed: String?)] = [:]
    /// True while the engine itself writes the `mode` setting (see `applyModeChange`).
    var engineSetsMode = false
    var modeConfirmation: (mode: NoiseTagMode, deadline: Double)?
    var trainingOrder: [ObjectIdentifier] = []
    var random: SeededGenerator
    /// The last reason no trial could start (codes not assignable, nothing flickering), said once per update.
    var lastAssignmentError: String?
    /// The link's problems reported in the current second, when that
    /// second began, and those beyond ``problemsPerSecond`` counted since.
    var problemsInWindow = 0, problemWindowStart = -Double.infinity, problemsHeldBack = 0
    /// How many of the link's problems (malformed frames) are reported in
    /// full each second; the rest are counted into one event a second.
    static let problemsPerSecond = 10
    var runningTrials = false
    var stimulus = StimulusFrameState()
    /// The codebook flicker codes come from (see `filenameNoiseTags`).
    public var codebook: Codebook { access.read { loadedCodebook } }
    /// Where ``codebook`` came from: a file path, or "built-in".
    public var codebookSource: String { access.read { loadedCodebookSource } }
    var loadedCodebook: Codebook = .standard
    var loadedCodebookSource = "built-in"
    /// ``Codebook/identity`` of ``codebook``, worked out when it loads.
    var codebookIdentity = Codebook.standard.identity
    /// True while the decoder's threshold advice is being adopted (its `settingChanged` says `decoder`).
    var adoptingAdvice = false
    private var consoleToken: NoiseTagEventStream.Token?

    /// True only while an update runs; actions can be assigned only then.
    public var isUpdating: Bool { access.read { updating } }
    var updating = false

    /// True while ``tick(frame:)`` runs: a tick from inside one is refused.
    private(set) var isTicking = false
    /// The clock read once at the start of the running tick, nil between ticks.
    private var tickTime: Double?

    /// The engine's time: inside a tick, the one clock reading taken when
    /// the tick began, so that everything a tick stamps (events, messages,
    /// presses, blocks, feedback) carries the same time and a replay of the
    /// tick times reproduces them; between ticks, the clock itself.
    var engineNow: Double { tickTime ?? clock.now }

    /// ``engineNow`` as a Utopia wire timestamp (int32 ms).
    var engineStamp: Int32 { type(of: clock).utopiaTimestamp(for: engineNow) }

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - clock: the time source (``VirtualClock`` in tests).
    ///   - settings: the settings to use.
    ///   - decoderLink: the decoder, or nil.
    ///   - seed: seeds target choice and code shifts, so runs are reproducible.
    public init(clock: EngineClock = MonotonicClock.shared, settings: NoiseTagSettings = NoiseTagSettings(),
                decoderLink: DecoderLink? = nil, seed: UInt64 = 0x5EED) {
        self.clock = clock
        self.settings = settings
        self.access = settings.access
        self.events = NoiseTagEventStream(access: settings.access)
        self.link = decoderLink
        self.wireLink = decoderLink as? WireDecoderLink
        self.random = SeededGenerator(seed: seed)
        settings.observeChanges { [weak self] title, value, old in self?.settingDidChange(title, value, old: old) }
        if settings.boolFor(.noiseTaggingPrintsToTheConsole) { mirrorToConsole(true) }
        loadCodebook()
    }

    // MARK: State

    /// The current mode: the `mode` setting, its only store. Set it with
    /// ``set(mode:waitTillDecoderConfirms:withExplanation:)`` or the setting.
    public var mode: NoiseTagMode { NoiseTagMode(rawValue: settings.textFor(.mode)) ?? .test }

    /// Number of units on the stack.
    public var unitCount: Int { access.read { units.count } }

    /// The current unit's view, if any.
    public var currentView: NoiseTagView? { access.read { units.last?.view } }

    /// True while any block is in place (the client's or the engine's own).
    public var trialsAreBlocked: Bool { access.read { blocks.isBlocked } }

    /// True while a trial runs.
    public var trialInProgress: Bool { access.read { trial != nil } }

    /// The running trial's phase, nil between trials.
    public var currentPhase: TrialPhase? { access.read { trial?.phase } }

    /// Number of trials started since the controller was made.
    public var trialsStarted: Int { access.read { trialCount } }

    /// True while press or no-press feedback is showing.
    public var isShowingFeedback: Bool { access.read { feedback != nil } }

    // MARK: Tick

    /// Advances the engine to the clock's current time: runs posted work,
    /// reads decoder messages, ends due blocks, feedback and trial phases,
    /// starts a trial when allowed, and renders the flicker frame (colours
    /// and STIMULUSEVENT).
    ///
    /// App code called from the tick (observers, controls, delegates, the
    /// link) may call any method of the controller, including replacing
    /// ``decoderLink``: the change applies at once and later sends in the same
    /// tick go to the new link. Only ``tick(frame:)`` itself is refused
    /// there (reported, nothing else happens).
    ///
    /// ``FrameLoop`` passes each frame's timing: its index decides which bit
    /// of the codes the frame shows. Without one, the frame is the one due
    /// now at `preferredNFramesPerSecond` (index `round(now × rate)`), so a
    /// second tick within the same frame renders nothing.
    public func tick(frame: FrameTiming? = nil) {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard !isTicking else {
            reportRefused(.tickInsideTick)
            return
        }
        isTicking = true
        defer { isTicking = false }
        if inbox.hasWork { for work in inbox.drain() { work(self) } }
        let now = clock.now
        tickTime = now
        defer { tickTime = nil }
        let heard = link != nil && drainDecoderLink(now: now)
        advanceLiveness(now: now, heard: heard)
        // Each step below returns at once when its state is empty; the checks
        // are repeated here to save the calls on most frames.
        if blocks.isBlocked { expireBlocks(now: now) }
        if modeConfirmation != nil { advanceModeConfirmation(now: now) }
        if feedback != nil { advanceFeedback(now: now) }
        if trial != nil { advanceTrial(now: now) }
        if trial == nil { startTrialIfPossible(now: now) }
        let frame = frame ?? frameDue(at: now)
        let sent = renderFrame(frame, now: now)
        // One record per frame: an app that ticks from its own loop, faster
        // than frames come, must not write a recording line for every call.
        if !frameObservers.isEmpty, frame.index != lastObservedFrame {
            lastObservedFrame = frame.index
            let record = FrameRecord(index: frame.index, deadline: frame.deadline, time: now,
                                     missed: frame.missed, trial: trial?.number, phase: trial?.phase,
                                     objIDs: sent ? stimulus.objIDs : [], states: sent ? stimulus.states : [])
            for id in frameObservers.ids { frameObservers.handler(id)?(record) }
        }
    }

    /// The frame due at `now` when no frame loop gives one: index
    /// `round(now × preferredNFramesPerSecond)`, on time.
    private func frameDue(at now: Double) -> FrameTiming {
        let period = 1 / Double(settings.intFor(.preferredNFramesPerSecond))
        return FrameTiming(index: Int((now / period).rounded()), deadline: now, time: now, period: period)
    }

    // MARK: Events

    func emit(_ kind: NoiseTagEvent.Kind) {
        events.emit(NoiseTagEvent(time: engineNow, kind: kind))
    }

    /// Logs an app call that replay re-applies (see ``AppCall``).
    func emitCall(_ name: String, value: String? = nil, control: (any NoiseTagControl)? = nil) {
        var index: Int?
        if let control { index = units.last?.view.allControls.firstIndex { $0 === control } }
        emit(.call(AppCall(name: name, value: value, control: control.map(\.noiseTagName), index: index,
                           inTick: isTicking)))
    }

    /// Reports a refused call on the event stream.
    func reportRefused(_ error: NoiseTagError) {
        emit(.refused(call: error.call, reason: error.description))
    }

    private func settingDidChange(_ title: NoiseTagSettingTitles, _ value: NoiseTagSettingValue,
                                  old: NoiseTagSettingValue) {
        let source: SettingSource = engineSetsMode && title == .mode ? .engine : adoptingAdvice ? .decoder : .app
        emit(.settingChanged(title: title.rawValue, value: value.description, source: source))
        switch title {
        case .mode where !engineSetsMode:
            // The user changed the setting: the engine follows.
            let from = NoiseTagMode(rawValue: old.description) ?? .test
            stopTrial(.modeChange)
            modeDidChange(from: from, to: mode, waitTillDecoderConfirms: false, explanation: "mode setting changed")
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
        consoleToken = events.subscribe { event in
            FileHandle.standardError.writeIfOpen(Data((event.jsonLine + "\n").utf8))
        }
    }
}
