/// What a setting is: its kind, default and meaning.
///
/// ```swift
/// let definition = NoiseTagSettingTitles.feedbackDuration.definition
/// print(definition.summary, definition.defaultValue)
/// ```
public struct NoiseTagSettingDefinition: Sendable {
    /// The value's type and allowed range.
    public let kind: NoiseTagSettingKind
    /// The value a fresh engine has.
    public let defaultValue: NoiseTagSettingValue
    /// One sentence on what it does (units included).
    public let summary: String
}

extension NoiseTagSettingTitles {
    /// The setting's kind, default and meaning.
    ///
    /// ```swift
    /// NoiseTagSettingTitles.timeInBetweenTrials.definition.defaultValue == .double(1)
    /// ```
    public var definition: NoiseTagSettingDefinition {
        typealias D = NoiseTagSettingDefinition
        switch self {
        case .mode: return D(kind: .choice(NoiseTagMode.allCases.map(\.rawValue)), defaultValue: .text("Test"), summary: "Current mode (TrainGeneric, TrainSimple, TrainCustom, Test, Verify, ElectrodeQuality, SignalQuality, DataCollection, ZeroTrain).")
        case .certaintyRequiredForPress: return D(kind: .double(0...1), defaultValue: .double(0.9), summary: "Decoder certainty (1 - Perr) at which a prediction becomes a press.")
        case .disableNoClicks: return D(kind: .bool, defaultValue: .bool(false), summary: "When the maximum trial duration runs out, press the most likely control instead of showing 'no press'.")
        case .clickFeedbackMode: return D(kind: .choice(ClickFeedbackMode.allCases.map(\.rawValue)), defaultValue: .text("SelectedAnimates"), summary: "How a press is shown: None, NonselectedGray, SelectedAnimates, RedBorder.")
        case .noiseTaggingPrintsToTheConsole: return D(kind: .bool, defaultValue: .bool(false), summary: "Mirror engine events to standard error.")
        case .showNoiseTagIDsOnControls: return D(kind: .bool, defaultValue: .bool(false), summary: "Show each control's Utopia object ID on it.")
        case .soundOnMissedFrame: return D(kind: .bool, defaultValue: .bool(false), summary: "Emit a sound event on every missed frame.")
        case .framesPerBit: return D(kind: .int(1...60), defaultValue: .int(1), summary: "Display frames each code bit is shown for.")
        case .preferredNFramesPerSecond: return D(kind: .int(1...480), defaultValue: .int(60), summary: "Frame rate of the frame loop, frames per second.")
        case .filenameNoiseTags: return D(kind: .text, defaultValue: .text(""), summary: "Codebook file in the MindAffect text format; empty for the built-in modulated Gold codes.")
        case .assignNoiseTagsInReversedOrder: return D(kind: .bool, defaultValue: .bool(false), summary: "Assign codes to controls from the last code backwards.")
        case .randomlyTranslateNoiseTagsInTraining: return D(kind: .bool, defaultValue: .bool(true), summary: "Shift each code by a seeded random cyclic offset in every training trial.")
        case .timeInBetweenTrials: return D(kind: .double(0...60), defaultValue: .double(1), summary: "Minimum gap between the end of one trial and the start of the next, seconds.")
        case .nSimpleTrainTrials: return D(kind: .int(1...1000), defaultValue: .int(6), summary: "Trials in TrainSimple before switching to Test.")
        case .trialDurationSimpleTrain: return D(kind: .double(0.1...60), defaultValue: .double(3), summary: "Flicker duration of a TrainSimple trial, seconds.")
        case .nGenericTrainTrials: return D(kind: .int(1...1000), defaultValue: .int(10), summary: "Trials in TrainGeneric before switching to Test.")
        case .trialDurationGenericTrain: return D(kind: .double(0.1...60), defaultValue: .double(4.2), summary: "Flicker duration of a TrainGeneric or TrainCustom trial, seconds.")
        case .minTrialDuration: return D(kind: .double(0...60), defaultValue: .double(1), summary: "No brain press before the flicker has run this long, seconds.")
        case .maxTestTrialDuration: return D(kind: .double(0.1...600), defaultValue: .double(10), summary: "A prediction trial ends after flickering this long, seconds.")
        case .disableMaxTestTrialDuration: return D(kind: .bool, defaultValue: .bool(false), summary: "Prediction trials run until a press, however long.")
        case .certaintyRequiredForFirstZeroTrainClick: return D(kind: .double(0...1), defaultValue: .double(0.99), summary: "Certainty needed for the first press in ZeroTrain.")
        case .maxDurationFirstZeroTrainClick: return D(kind: .double(0.1...600), defaultValue: .double(30), summary: "Maximum duration of the first ZeroTrain trial, seconds.")
        case .nZeroTrainTrials: return D(kind: .int(1...1000), defaultValue: .int(10), summary: "Trials in ZeroTrain before switching to Test.")
        case .timeoutConnecting: return D(kind: .double(0.1...600), defaultValue: .double(5), summary: "Time allowed for one attempt to connect to the decoder, seconds.")
        case .timeInBetweenAttemptsToConnect: return D(kind: .double(0.1...600), defaultValue: .double(1), summary: "Pause between attempts to connect to the decoder, seconds.")
        case .durationAutoConnectBeforeWarningUser: return D(kind: .double(0...3600), defaultValue: .double(10), summary: "Keep connecting silently this long before warning the user, seconds.")
        case .contrastMode: return D(kind: .choice(["Min", "Low", "Medium", "High", "Max"]), defaultValue: .text("Max"), summary: "Flicker contrast from Min to Max.")
        case .defaultColorButtonEnabled: return D(kind: .color, defaultValue: .text("#8C8C8C"), summary: "Look of an enabled control when not flickering.")
        case .defaultColorButtonDisabled: return D(kind: .color, defaultValue: .text("#3A3A3A"), summary: "Look of a disabled control.")
        case .colorButtonNotPressedFeedback: return D(kind: .color, defaultValue: .text("#505050"), summary: "Feedback colour of controls not pressed, and of all controls on 'no press'.")
        case .colorBitOffIfMaxContrast: return D(kind: .color, defaultValue: .text("#000000"), summary: "Colour of a 0 bit at maximum contrast.")
        case .colorBitOnIfMaxContrast: return D(kind: .color, defaultValue: .text("#FFFFFF"), summary: "Colour of a 1 bit at maximum contrast.")
        case .clickSoundOnPress: return D(kind: .bool, defaultValue: .bool(true), summary: "Emit a click-sound event on a press.")
        case .enableOtherSounds: return D(kind: .bool, defaultValue: .bool(true), summary: "Allow sounds other than the click.")
        case .soundAlarmWhenDisconnecting: return D(kind: .bool, defaultValue: .bool(true), summary: "Raise the alarm flag when the decoder is lost.")
        case .twoFingerDoubleTapOpensDeveloperScreen: return D(kind: .bool, defaultValue: .bool(true), summary: "The developer-panel key opens the developer panel.")
        case .hideNonTargetControls: return D(kind: .bool, defaultValue: .bool(false), summary: "In training, show only the target while it flickers.")
        case .labeledButtonsOnlyPartlyFlicker: return D(kind: .bool, defaultValue: .bool(false), summary: "Keep a labelled control's label readable by flickering only its border.")
        case .decoderEndpoint: return D(kind: .text, defaultValue: .text(""), summary: "ZeroMQ endpoint of the decoder; empty for the per-user ipc:// socket.")
        case .cueDuration: return D(kind: .double(0...10), defaultValue: .double(1), summary: "How long the target is highlighted before a training or Verify trial, seconds.")
        case .pauseAfterCue: return D(kind: .double(0...10), defaultValue: .double(0.5), summary: "Rest between cue and flicker, seconds.")
        case .feedbackDuration: return D(kind: .double(0...10), defaultValue: .double(1), summary: "Duration of brain-press and no-press feedback, seconds.")
        case .touchFeedbackDuration: return D(kind: .double(0...10), defaultValue: .double(0.3), summary: "Duration of touch-press feedback, seconds.")
        case .nDataCollectionTrials: return D(kind: .int(0...1_000_000), defaultValue: .int(0), summary: "Trials in DataCollection before trials stop; 0 for no limit.")
        case .heartbeatInterval: return D(kind: .double(0.05...60), defaultValue: .double(1), summary: "Seconds between heartbeats to the decoder.")
        case .decoderTimeout: return D(kind: .double(0.1...600), defaultValue: .double(3), summary: "Seconds without any decoder message before it counts as disconnected.")
        case .colorTargetCue: return D(kind: .color, defaultValue: .text("#2ECC40"), summary: "Colour that highlights the target in the cue phase.")
        case .modeConfirmationTimeout: return D(kind: .double(0.1...60), defaultValue: .double(2), summary: "Seconds to wait for the decoder to confirm a mode change.")
        case .recordingsSizeLimitMB: return D(kind: .int(0...10_000_000), defaultValue: .int(0), summary: "Delete the oldest finished recordings while all recordings take more than this many megabytes; 0 never deletes.")
        case .recordingsEnabled: return D(kind: .bool, defaultValue: .bool(true), summary: "Record into the recordings folder; turning it off ends the current recording (\"recordings off\"), turning it on starts one (\"recordings on\"). The NoiseTagging singleton starts with it off when NOISETAG_RECORDINGS=off. Honoured by the engine's recorder.")
        }
    }
}
