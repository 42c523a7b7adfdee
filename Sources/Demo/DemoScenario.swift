import NoiseTagging

/// The demo's walk-through on a real controller, shared by the terminal
/// and headless demos: a signal check (the engine in SignalQuality mode),
/// calibration on the keyboard (TrainGeneric, `nGenericTrainTrials` cued
/// trials; the engine itself moves on to Test), waiting for the decoder's
/// fit, its accuracy and threshold on screen, then Test on the keyboard
/// until the goal text is typed, confirmed on a popup pushed over the
/// keyboard (trials blocked while the popup slides in). Call ``step()``
/// after every frame; it reacts to what the engine did in that frame and
/// tells the simulated user (if any) where to look next.
///
/// ```swift
/// let scenario = DemoScenario(controller: controller, keyboard: keyboard, reports: reports,
///                             user: SpellingUser(goal: "HELLO WORLD", focus: focus), goal: "HELLO WORLD")
/// scenario.start()
/// while scenario.stage != .finished { loop.step(); scenario.step() }
/// print(scenario.summary(missedFrames: loop.missedFrames).lines.joined(separator: "\n"))
/// ```
public final class DemoScenario {
    /// The engine driven.
    public let controller: NoiseTagController
    /// The keyboard unit (always the bottom unit).
    public let keyboard: SpellerKeyboard
    /// What the decoder reported.
    public let reports: DecoderReports
    /// The simulated user, nil when a person (or another program) is the user.
    public let user: SpellingUser?
    /// The text to type (upper case).
    public let goal: String
    /// How long the signal check lasts, s.
    public var signalCheckSeconds = 6.0
    /// How long the results stay on screen before Test starts, s.
    public var resultsSeconds = 5.0
    /// True to skip calibration: after the signal check the keyboard is
    /// spelled on in ZeroTrain mode, the decoder learning without labels
    /// (the engine moves on to Test after `nZeroTrainTrials`).
    public var zeroTraining = false
    /// How long the decoder may take to fit before the demo goes on without its threshold, s.
    public var fitTimeout = 120.0
    /// How long trials stay blocked while the popup slides in, s.
    public static let popupAnimationSeconds = 0.6
    /// Where the walk-through is.
    public private(set) var stage: DemoStage = .signalCheck(until: 0)
    /// The popup while it is open.
    public private(set) var popup: ConfirmationPopup?
    /// Engine time when the latest trial ended (for the inter-trial countdown), nil before.
    public private(set) var lastTrialEnd: Double?
    /// Messages for the screen ("recalibrating: a new recording", a refused touch), newest last.
    public private(set) var notices: [String] = []
    /// Calibration trials started since calibration (re)started.
    public private(set) var calibrationTrialsStarted = 0
    /// Engine time of the newest notice, nil before the first.
    public private(set) var lastNoticeTime: Double?

    private var summaryCounts = DemoSummary(threshold: 0, thresholdFromDecoder: false)
    private var signalCheckEnded: Double?
    private var selectionTimes: [Double] = []
    private var intendedByTrial: [Int: String] = [:]
    private var switchedToTest = false
    private var declinedText: String?
    private var holding = false
    private var token: NoiseTagEventStream.Token?

    /// A scenario on `controller` (which must have no unit yet).
    public init(controller: NoiseTagController, keyboard: SpellerKeyboard, reports: DecoderReports,
                user: SpellingUser?, goal: String) {
        self.controller = controller
        self.keyboard = keyboard
        self.reports = reports
        self.user = user
        self.goal = goal.uppercased()
        token = controller.events.subscribe { [unowned self] event in self.hear(event) }
    }

    deinit { if let token { controller.events.unsubscribe(token) } }

    /// Pushes the keyboard and starts the signal check.
    public func start() {
        controller.push(view: keyboard.view, forNoiseTaggingWithDelegate: keyboard)
        beginSignalCheck()
    }

    /// Reacts to the frame just run: moves the walk-through on and updates
    /// the simulated user's gaze.
    public func step() {
        let now = controller.clock.now
        switch stage {
        case .signalCheck(let until):
            if now >= until { zeroTraining ? beginZeroTraining() : beginCalibration() }
        case .calibration:
            if switchedToTest {
                switchedToTest = false
                controller.trialsAreRunning = false
                stage = .fitting(since: now)
            }
        case .fitting(let since):
            if reports.fitHasEnded(since: since, now: now, timeout: fitTimeout) {
                if reports.thresholds.isEmpty { note(reports.calibrationFailed ? "the decoder fitted no model" : "no threshold from the decoder within \(Int(fitTimeout)) s") }
                summaryCounts.calibrationAccuracy = reports.calibrationAccuracy
                summaryCounts.thresholdFromDecoder = !reports.thresholds.isEmpty
                summaryCounts.threshold = controller.settings.doubleFor(.certaintyRequiredForPress)
                stage = .results(until: now + resultsSeconds)
            }
        case .results(let until):
            if now >= until { beginSpelling() }
        case .spelling:
            if keyboard.typed != declinedText { declinedText = nil }
            if !goal.isEmpty, keyboard.typed == goal, declinedText == nil {
                // The text is complete as the last key's feedback starts: no trial may start on the keyboard meanwhile.
                if summaryCounts.secondsToGoal == nil, let signalCheckEnded { summaryCounts.secondsToGoal = now - signalCheckEnded }
                if controller.isShowingFeedback { holdTrials() } else { openPopup(now: now) }
            }
        case .confirming:
            if let popup, let answer = popup.answer {
                guard !controller.isShowingFeedback else {
                    holdTrials()
                    break
                }
                controller.pop()
                releaseTrials()
                self.popup = nil
                if answer {
                    summaryCounts.sent = keyboard.typed
                    controller.trialsAreRunning = false
                    stage = .finished
                } else {
                    declinedText = keyboard.typed
                    stage = .spelling
                }
            }
        case .finished:
            break
        }
        let looking: Bool
        switch stage {
        case .spelling, .confirming: looking = true
        default: looking = false
        }
        user?.look(typed: keyboard.typed, popup: popup, keyboard: keyboard, done: !looking)
    }

    /// Ends the signal check or the results screen now (Enter).
    public func skipWaiting() {
        switch stage {
        case .signalCheck: zeroTraining ? beginZeroTraining() : beginCalibration()
        case .results: beginSpelling()
        default: break
        }
    }

    /// Recalibrates: a new recording, the decoder's calibration reset, the
    /// popup closed, the typed text cleared, then calibration again.
    public func recalibrate() {
        // Entering training starts a new recording by itself; already in training, start one here.
        if controller.mode == .trainGeneric { controller.startNewRecording(withComments: "recalibration (key r)") }
        controller.sendDecoderALogMessageWith(text: "recalibration requested (key r)")
        if popup != nil {
            controller.pop()
            popup = nil
        }
        releaseTrials()
        keyboard.clear()
        controller.resetDecoderCalibration()
        note("recalibrating: a new recording, the decoder's calibration reset")
        beginCalibration()
    }

    /// After the goal was sent: clears the text and spells again (space).
    public func spellAgain() {
        guard stage == .finished else { return }
        keyboard.clear()
        summaryCounts.sent = nil
        beginSpelling()
    }

    /// The run so far.
    public func summary(missedFrames: Int) -> DemoSummary {
        var summary = summaryCounts
        summary.typed = keyboard.typed
        summary.missedFrames = missedFrames
        summary.meanSelectionTime = selectionTimes.isEmpty ? nil : selectionTimes.reduce(0, +) / Double(selectionTimes.count)
        summary.zeroTraining = zeroTraining
        if zeroTraining { summary.calibrationAccuracy = reports.calibrationAccuracy }
        switch (zeroTraining, stage) {
        case (true, _), (false, .signalCheck), (false, .calibration), (false, .fitting):
            // Zero training: the decoder recommends thresholds as it learns. Before a fit: none yet. The one in force now.
            summary.threshold = controller.settings.doubleFor(.certaintyRequiredForPress)
            summary.thresholdFromDecoder = !reports.thresholds.isEmpty
        default:
            break
        }
        return summary
    }

    /// Why no trial can start (a trial start the engine refused: too few
    /// codes for the controls, clashing IDs), once one was; nil before.
    /// The walk-through cannot go on: its runner ends it with this reason.
    public private(set) var cannotGoOn: String?

    /// True when the decoder recommended its ceiling (1 − 10⁻⁶): no lower
    /// certainty kept presses honest and idle presses rare on this
    /// calibration (too few or too short trials), so Test will hardly press.
    public var thresholdAtCeiling: Bool { (reports.thresholds.last ?? 0) >= Self.decoderCeiling }

    /// The reference decoder's highest recommendation, 1 − 10⁻⁶, as
    /// CERTAINTYTHRESHOLD's float32 carries it (0.99999899…).
    static let decoderCeiling = Double(Float(1 - 1e-6))

    /// The label of the control with object ID `objectID` in the top unit, if any.
    public func label(ofObject objectID: Int) -> String? {
        let controls: [NoiseTagButton] = popup.map { [$0.yes, $0.no] } ?? keyboard.keys
        return controls.first { $0.noiseTagging.customUtopiaObjectID == objectID }?.label
    }

    // MARK: Stages

    private func beginSignalCheck() {
        controller.trialsAreRunning = false
        controller.set(mode: .signalQuality, withExplanation: "demo: signal check")
        stage = .signalCheck(until: controller.clock.now + signalCheckSeconds)
    }

    private func beginCalibration() {
        reports.markCalibrationStart()
        if signalCheckEnded == nil { signalCheckEnded = controller.clock.now }
        calibrationTrialsStarted = 0
        switchedToTest = false
        controller.set(mode: .trainGeneric, withExplanation: "demo: calibration")
        controller.trialsAreRunning = true
        stage = .calibration
    }

    private func beginZeroTraining() {
        signalCheckEnded = controller.clock.now
        summaryCounts.threshold = controller.settings.doubleFor(.certaintyRequiredForPress)
        controller.set(mode: .zeroTrain, withExplanation: "demo: typing without calibration (zero training)")
        controller.trialsAreRunning = true
        stage = .spelling
    }

    private func beginSpelling() {
        if controller.mode != .test { controller.set(mode: .test, withExplanation: "demo: spelling") }
        controller.trialsAreRunning = true
        stage = .spelling
    }

    private func openPopup(now: Double) {
        let popup = ConfirmationPopup(question: "Send \"\(keyboard.typed)\"?")
        controller.push(view: popup.view, forNoiseTaggingWithDelegate: popup)
        controller.blockTrials(forDuration: Self.popupAnimationSeconds)
        releaseTrials()
        self.popup = popup
        stage = .confirming(since: now)
    }

    /// Keeps trials from starting until ``releaseTrials()`` (one untimed client block).
    private func holdTrials() {
        guard !holding else { return }
        controller.blockTrials()
        holding = true
    }

    private func releaseTrials() {
        guard holding else { return }
        controller.unblockTrials()
        holding = false
    }

    private func note(_ text: String) {
        lastNoticeTime = controller.clock.now
        notices.append(text)
        if notices.count > 20 { notices.removeFirst() }
    }

    // MARK: Engine events

    private func hear(_ event: NoiseTagEvent) {
        switch event.kind {
        case .modeChanged(.trainGeneric, .test, _):
            if stage == .calibration { switchedToTest = true }
        case .trialStarted(let start) where start.mode == .test || start.mode == .zeroTrain:
            if let intended = user?.intended { intendedByTrial[start.trial] = intended }
        case .trialStarted(let start) where start.mode == .trainGeneric:
            if stage == .calibration { calibrationTrialsStarted += 1 }
        case .press(let press) where controller.mode == .test || controller.mode == .zeroTrain:
            switch press.source {
            case .brain:
                summaryCounts.brainPresses += 1
                if let trial = press.trial, let intended = intendedByTrial[trial] {
                    summaryCounts.judgedPresses += 1
                    if press.control == intended { summaryCounts.correctPresses += 1 }
                }
            case .touch: summaryCounts.touchPresses += 1
            case .timeout: break
            }
        case .refused(let call, let reason):
            note("\(call) refused: \(reason)")
            // The codebook has too few codes for the keyboard (or IDs clash): the walk-through cannot go on.
            if call == "trial start", cannotGoOn == nil { cannotGoOn = reason }
        case .selectionRevised(let revision):
            summaryCounts.revisions += 1
            note("trial \(revision.trial) was probably \(revision.control)" + (revision.pressed.map { " (pressed: \($0))" } ?? ""))
        case .trialEnded(let end):
            lastTrialEnd = event.time
            intendedByTrial[end.trial] = nil
            guard end.mode == .test || end.mode == .zeroTrain else { return }
            switch end.ending {
            case .stopped: return
            case .pressed(.brain): selectionTimes.append(end.duration)
            case .noPress, .completed: summaryCounts.trialsWithoutPress += 1
            default: break
            }
            summaryCounts.testTrials += 1
        default:
            break
        }
    }
}
