/// One thing that happened in the engine, stamped with the engine clock.
///
/// Recordings, replay and the demo all consume this stream.
///
/// ```swift
/// controller.events.subscribe { event in
///     if case .press(let press) = event.kind { print(press.control) }
/// }
/// ```
public struct NoiseTagEvent: Equatable, Sendable {
    /// Engine-clock seconds.
    public let time: Double
    /// What happened.
    public let kind: Kind

    /// The kinds of event.
    public enum Kind: Equatable, Sendable {
        case trialStarted(TrialStart)
        case trialPhase(trial: Int, phase: TrialPhase)
        case trialEnded(TrialEnd)
        case press(Press)
        case noPress(trial: Int)
        /// The decoder now believes an earlier trial meant another control
        /// (a zero-training decoder revising what it learned): "trial 3 was probably X".
        case selectionRevised(SelectionRevision)
        /// The decoder's calibration fit ended (its CALIBRATIONRESULT): a
        /// model or none, and why. An app shows it, or asks for a new
        /// calibration when no model came.
        case decoderCalibration(DecoderCalibration)
        case feedbackStarted(mode: ClickFeedbackMode, source: PressSource?, duration: Double)
        case feedbackEnded
        case actionRan(control: String, timing: Double)
        case clickSound(control: String)
        case blocked(reason: BlockReason, duration: Double?)
        case unblocked(reason: BlockReason)
        case trialsRunning(Bool)
        case unitPushed(depth: Int, context: String?)
        case unitPopped(depth: Int, context: String?)
        case unitUpdated(depth: Int, context: String?)
        case modeChanged(from: NoiseTagMode, to: NoiseTagMode, explanation: String?)
        case modeConfirmed(mode: NoiseTagMode, confirmed: Bool)
        case settingChanged(title: String, value: String, source: SettingSource)
        /// An app call replay re-applies (see ``AppCall``).
        case call(AppCall)
        case missedFrame(index: Int, lateness: Double, skipped: Int)
        case sound(name: String)
        case codebookLoaded(source: String, codes: Int, length: Int)
        case refused(call: String, reason: String)
        case notice(String)
        case decoderConnection(state: DecoderConnectionState, alarm: Bool)
        case decoderProblem(String)
        case lifecycle(AppLifecycleChange)
        /// A recording began; `format` is ``RecordingFormat/current`` of the engine that wrote it.
        case recordingStarted(folder: String, reason: String, format: Int)
        case recordingEnded(folder: String, reason: String)
        case recordingProblem(path: String, reason: String, loggingOff: Bool)
        case recordingLinesDropped(frameLines: Int, otherLines: Int)
    }

    /// A trial began.
    public struct TrialStart: Equatable, Codable, Sendable {
        public var trial: Int
        public var mode: NoiseTagMode
        /// The cued target's identifier (training and Verify).
        public var target: String?
        /// The cued target's object ID.
        public var targetObjectID: Int?
        /// Identifiers of the flickering controls, in the order the engine found them.
        public var controls: [String]
        /// Each flickering control's Utopia object ID, same order.
        public var objectIDs: [Int]
        /// Each control's code: its index in the loaded codebook, same order.
        public var codes: [Int]
        /// The cyclic shift applied to every code (training with
        /// `randomlyTranslateNoiseTagsInTraining`), nil when none.
        public var codeShift: Int?
        /// The engine's state when the trial started, for replay.
        public var state: EngineSnapshot?
    }

    /// A trial ended.
    public struct TrialEnd: Equatable, Codable, Sendable {
        public var trial: Int
        public var mode: NoiseTagMode
        public var ending: TrialEnding
        public var target: String?
        public var pressed: String?
        /// Seconds from trial start to end.
        public var duration: Double
    }

    /// A press.
    /// A decoder's better guess about an earlier trial.
    public struct SelectionRevision: Equatable, Codable, Sendable {
        /// The trial's number.
        public var trial: Int
        /// The control the decoder now believes the user looked at.
        public var control: String
        /// Its object ID.
        public var objectID: Int
        /// The control pressed in that trial, nil when it ended without a press.
        public var pressed: String?
    }

    /// What a decoder's calibration fit came to (Protocols/decoder-bridge.md, `C`).
    public struct DecoderCalibration: Equatable, Codable, Sendable {
        /// True when the fit produced a model (its threshold follows).
        public var fitted: Bool
        /// The calibration trials it used (or found, when too few).
        public var trials: Int
        /// Cross-validated accuracy (0…1) at `seconds`, nil when not measured.
        public var accuracy: Double?
        /// The trial length `accuracy` is for, nil when not measured.
        public var seconds: Double?
        /// The settings chosen, or why no model was fitted.
        public var summary: String
    }

    public struct Press: Equatable, Codable, Sendable {
        /// The trial the press ended, nil for a touch between trials.
        public var trial: Int?
        public var control: String
        public var objectID: Int?
        public var source: PressSource
        /// Decoder certainty (1 − Perr) for brain and timeout presses.
        public var certainty: Double?
        /// The cued target, when known (training and Verify).
        public var target: String?
    }
}
