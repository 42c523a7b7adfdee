/// The title of every setting, as in the reference framework, plus the
/// settings this engine adds (durations of phases and feedback, the decoder
/// endpoint and liveness).
///
/// `certaintyRequiredForClick` is accepted as another name for
/// `certaintyRequiredForPress`.
public enum NoiseTagSettingTitles: String, CaseIterable, Codable, Sendable {
    case mode
    case certaintyRequiredForPress
    case disableNoClicks
    case clickFeedbackMode
    case noiseTaggingPrintsToTheConsole
    case showNoiseTagIDsOnControls
    case soundOnMissedFrame
    case framesPerBit
    case preferredNFramesPerSecond
    case filenameNoiseTags
    case assignNoiseTagsInReversedOrder
    case randomlyTranslateNoiseTagsInTraining
    case timeInBetweenTrials
    case nSimpleTrainTrials
    case trialDurationSimpleTrain
    case nGenericTrainTrials
    case trialDurationGenericTrain
    case minTrialDuration
    case maxTestTrialDuration
    case disableMaxTestTrialDuration
    case certaintyRequiredForFirstZeroTrainClick
    case maxDurationFirstZeroTrainClick
    case nZeroTrainTrials
    case timeoutConnecting
    case timeInBetweenAttemptsToConnect
    case durationAutoConnectBeforeWarningUser
    case contrastMode
    case defaultColorButtonEnabled
    case defaultColorButtonDisabled
    case colorButtonNotPressedFeedback
    case colorBitOffIfMaxContrast
    case colorBitOnIfMaxContrast
    case clickSoundOnPress
    case enableOtherSounds
    case soundAlarmWhenDisconnecting
    case twoFingerDoubleTapOpensDeveloperScreen
    case hideNonTargetControls
    case labeledButtonsOnlyPartlyFlicker
    case decoderEndpoint
    // Engine additions.
    case cueDuration
    case pauseAfterCue
    case feedbackDuration
    case touchFeedbackDuration
    case nDataCollectionTrials
    case heartbeatInterval
    case decoderTimeout
    case modeConfirmationTimeout
    case colorTargetCue
    case recordingsSizeLimitMB
    case recordingsEnabled

    /// The reference guide's other name for ``certaintyRequiredForPress``.
    public static let certaintyRequiredForClick = NoiseTagSettingTitles.certaintyRequiredForPress

    /// Looks a title up by name, accepting `certaintyRequiredForClick`.
    public init?(name: String) {
        if name == "certaintyRequiredForClick" {
            self = .certaintyRequiredForPress
        } else if let title = NoiseTagSettingTitles(rawValue: name) {
            self = title
        } else {
            return nil
        }
    }
}
