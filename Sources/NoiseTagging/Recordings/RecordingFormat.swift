/// The version of what a recording holds, logged in its `recordingStarted`
/// event (`format`), so that a reader can tell what to expect: 1 (no
/// `format` field) before replay support; 2 adds each trial's engine state
/// (`trialStarted.state`), app `call` events and `settingChanged.source`;
/// 3 adds `unsent` lines to `decoder.csv`, and Verify trials' STIMULUSEVENTs
/// carry the cued target as object 0.
public enum RecordingFormat {
    /// The format this engine writes.
    public static let current = 3
}
