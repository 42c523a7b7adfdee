/// What a setting is: its kind, default and meaning.
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
    public var definition: NoiseTagSettingDefinition {
        typealias D = NoiseTagSettingDefinition
        switch self {
        case .mode: return D(kind: .choice(NoiseTagMode.allCases.map(\.rawValue)), defaultValue: .text("Test"), summary: "Current mode (TrainGeneric, TrainSimple, TrainCustom, Test, Verify, ElectrodeQuality, SignalQuality, DataCollection, ZeroTrain). Honoured by the engine.")
        case .certaintyRequiredForPress: return D(kind: .double(0...1), defaultValue: .double(0.9), summary: "Decoder certainty (1 - Perr) at which a prediction becomes a press. Honoured by the engine, compared at float32 precision (the precision of Perr on the wire).")
        case .disableNoClicks: return D(kind: .bool, defaultValue: .bool(false), summary: "When the maximum trial duration runs out, press the most likely control instead of showing 'no press'. Honoured by the engine.")
        case .clickFeedbackMode: return D(kind: .choice(ClickFeedbackMode.allCases.map(\.rawValue)), defaultValue: .text("SelectedAnimates"), summary: "How a press is shown: None, NonselectedGray, SelectedAnimates, RedBorder. Honoured by the engine (it gives the controls their feedback colours).")
        case .noiseTaggingPrintsToTheConsole: return D(kind: .bool, defaultValue: .bool(false), summary: "Mirror engine events to standard error. Honoured by the engine.")
        case .showNoiseTagIDsOnControls: return D(kind: .bool, defaultValue: .bool(false), summary: "Show each flickering control's Utopia object ID on it. The engine sets noiseTagging.renderHints (objectID, showsObjectID); the renderer draws the ID.")
        case .soundOnMissedFrame: return D(kind: .bool, defaultValue: .bool(false), summary: "Emit a sound event on every missed frame. Honoured by the engine (with enableOtherSounds); the app plays the sound.")
        case .framesPerBit: return D(kind: .int(1...60), defaultValue: .int(1), summary: "Display frames each code bit is shown for. Honoured by the engine.")
        case .preferredNFramesPerSecond: return D(kind: .int(1...480), defaultValue: .int(60), summary: "Frame rate of the frame loop, frames per second. Honoured by the engine's frame loop (FrameLoop).")
        case .filenameNoiseTags: return D(kind: .text, defaultValue: .text(""), summary: "Codebook file in the MindAffect text format; empty for the built-in modulated Gold codes. Honoured by the engine.")
        case .assignNoiseTagsInReversedOrder: return D(kind: .bool, defaultValue: .bool(false), summary: "Assign codes to controls from the last code backwards. Honoured by the engine.")
        case .randomlyTranslateNoiseTagsInTraining: return D(kind: .bool, defaultValue: .bool(true), summary: "Shift each code by a seeded random cyclic offset in every training trial. Honoured by the engine.")
        case .timeInBetweenTrials: return D(kind: .double(0...60), defaultValue: .double(1), summary: "Minimum gap between the end of one trial and the start of the next, seconds. Honoured by the engine.")
        case .nSimpleTrainTrials: return D(kind: .int(1...1000), defaultValue: .int(6), summary: "Trials in TrainSimple before switching to Test. Honoured by the engine.")
        case .trialDurationSimpleTrain: return D(kind: .double(0.1...60), defaultValue: .double(3), summary: "Flicker duration of a TrainSimple trial, seconds. Honoured by the engine.")
        case .nGenericTrainTrials: return D(kind: .int(1...1000), defaultValue: .int(10), summary: "Trials in TrainGeneric before switching to Test. Honoured by the engine.")
        case .trialDurationGenericTrain: return D(kind: .double(0.1...60), defaultValue: .double(4.2), summary: "Flicker duration of a TrainGeneric or TrainCustom trial, seconds. Honoured by the engine.")
        case .minTrialDuration: return D(kind: .double(0...60), defaultValue: .double(1), summary: "No brain press before the flicker has run this long, seconds. Honoured by the engine.")
        case .maxTestTrialDuration: return D(kind: .double(0.1...600), defaultValue: .double(10), summary: "A prediction trial ends after flickering this long, seconds. Honoured by the engine.")
        case .disableMaxTestTrialDuration: return D(kind: .bool, defaultValue: .bool(false), summary: "Prediction trials run until a press, however long. Honoured by the engine.")
        case .certaintyRequiredForFirstZeroTrainClick: return D(kind: .double(0...1), defaultValue: .double(0.99), summary: "Certainty needed for the first press in ZeroTrain. Honoured by the engine.")
        case .maxDurationFirstZeroTrainClick: return D(kind: .double(0.1...600), defaultValue: .double(30), summary: "Maximum duration of the first ZeroTrain trial, seconds. Honoured by the engine.")
        case .nZeroTrainTrials: return D(kind: .int(1...1000), defaultValue: .int(10), summary: "Trials in ZeroTrain before switching to Test. Honoured by the engine.")
        case .timeoutConnecting: return D(kind: .double(0.1...600), defaultValue: .double(5), summary: "Time allowed for one attempt to reach the decoder, seconds: then the engine reports \"decoder not found\" and tries again; the bridge's ZeroMQ link also uses it as its TCP connect timeout, and its Utopia TCP link as its connect timeout (at most 2 s).")
        case .timeInBetweenAttemptsToConnect: return D(kind: .double(0.1...600), defaultValue: .double(1), summary: "Pause between attempts to reach the decoder, seconds: the engine asks the link to reconnect this long after an attempt failed; the bridge's ZeroMQ link also reconnects at this interval (ZMQ_RECONNECT_IVL), and its Utopia TCP link waits this long between attempts.")
        case .durationAutoConnectBeforeWarningUser: return D(kind: .double(0...3600), defaultValue: .double(10), summary: "Keep connecting silently this long before warning the user, seconds. Honoured by the engine (a notice event).")
        case .contrastMode: return D(kind: .choice(["Min", "Low", "Medium", "High", "Max"]), defaultValue: .text("Max"), summary: "Flicker contrast from Min to Max. Honoured by the engine.")
        case .defaultColorButtonEnabled: return D(kind: .color, defaultValue: .text("#8C8C8C"), summary: "Look of an enabled control when not flickering. Honoured by the engine (a control's default look, noiseTagging.defaultColor).")
        case .defaultColorButtonDisabled: return D(kind: .color, defaultValue: .text("#3A3A3A"), summary: "Look of a disabled control. Honoured by the engine (a control's default look, noiseTagging.defaultColor).")
        case .colorButtonNotPressedFeedback: return D(kind: .color, defaultValue: .text("#505050"), summary: "Feedback colour of controls not pressed, and of all controls on 'no press'. Honoured by the engine.")
        case .colorBitOffIfMaxContrast: return D(kind: .color, defaultValue: .text("#000000"), summary: "Colour of a 0 bit at maximum contrast. Honoured by the engine.")
        case .colorBitOnIfMaxContrast: return D(kind: .color, defaultValue: .text("#FFFFFF"), summary: "Colour of a 1 bit at maximum contrast. Honoured by the engine.")
        case .clickSoundOnPress: return D(kind: .bool, defaultValue: .bool(true), summary: "Emit a click-sound event on a press. Honoured by the engine (a clickSound event); the app plays the sound.")
        case .enableOtherSounds: return D(kind: .bool, defaultValue: .bool(true), summary: "Allow sounds other than the click on press (the missed-frame sound, the disconnect alarm). Honoured by the engine: when off it emits no sound event but the click; the app plays the sounds.")
        case .soundAlarmWhenDisconnecting: return D(kind: .bool, defaultValue: .bool(true), summary: "Raise the alarm flag when the decoder is lost. Honoured by the engine (with enableOtherSounds); the app plays the sound.")
        case .twoFingerDoubleTapOpensDeveloperScreen: return D(kind: .bool, defaultValue: .bool(true), summary: "The developer-panel gesture (here a key the app recognises) opens the developer panel: developerPanelGestureRecognized() is honoured only while this is on. Honoured by the engine.")
        case .hideNonTargetControls: return D(kind: .bool, defaultValue: .bool(false), summary: "In training, show only the target while it flickers. Honoured by the engine.")
        case .labeledButtonsOnlyPartlyFlicker: return D(kind: .bool, defaultValue: .bool(false), summary: "Keep a labelled control's label readable by flickering only its border. The engine sets noiseTagging.renderHints.flickersOnlyBorder for controls with a label; the renderer paints the border only.")
        case .decoderEndpoint: return D(kind: .text, defaultValue: .text(""), summary: "ZeroMQ endpoint of the decoder; empty for the per-user ipc:// socket. Honoured by the bridge (DecoderEndpoint.resolve) when the app or the CLI makes its decoder link.")
        case .cueDuration: return D(kind: .double(0...10), defaultValue: .double(1), summary: "How long the target is highlighted before a training or Verify trial, seconds. Honoured by the engine.")
        case .pauseAfterCue: return D(kind: .double(0...10), defaultValue: .double(0.5), summary: "Rest between cue and flicker, seconds. Honoured by the engine.")
        case .feedbackDuration: return D(kind: .double(0...10), defaultValue: .double(1), summary: "Duration of brain-press and no-press feedback, seconds. Honoured by the engine.")
        case .touchFeedbackDuration: return D(kind: .double(0...10), defaultValue: .double(0.3), summary: "Duration of touch-press feedback, seconds. Honoured by the engine.")
        case .nDataCollectionTrials: return D(kind: .int(0...1_000_000), defaultValue: .int(0), summary: "Trials in DataCollection before trials stop; 0 for no limit. Honoured by the engine.")
        case .heartbeatInterval: return D(kind: .double(0.05...60), defaultValue: .double(1), summary: "Seconds between heartbeats to the decoder. Honoured by the engine.")
        case .decoderTimeout: return D(kind: .double(0.1...600), defaultValue: .double(3), summary: "Seconds without any decoder message before it counts as disconnected. Honoured by the engine.")
        case .colorTargetCue: return D(kind: .color, defaultValue: .text("#2ECC40"), summary: "Colour that highlights the target in the cue phase. Honoured by the engine.")
        case .modeConfirmationTimeout: return D(kind: .double(0.1...60), defaultValue: .double(2), summary: "Seconds to wait for the decoder to confirm a mode change. Honoured by the engine.")
        case .recordingsSizeLimitMB: return D(kind: .int(0...10_000_000), defaultValue: .int(0), summary: "Delete the oldest finished recordings while all recordings take more than this many megabytes; 0 never deletes. Honoured by the engine's recorder.")
        case .recordingsEnabled: return D(kind: .bool, defaultValue: .bool(true), summary: "Record into the recordings folder; turning it off ends the current recording (\"recordings off\"), turning it on starts one (\"recordings on\"). The NoiseTagging singleton starts with it off when NOISETAG_RECORDINGS=off. Honoured by the engine's recorder.")
        }
    }
}
