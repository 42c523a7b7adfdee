/// The version of what a recording holds, logged in its `recordingStarted`
/// event (`format`), so that a reader can tell what to expect: 1 (no
/// `format` field) before replay support; 2 adds each trial's engine state
/// (`trialStarted.state`), app `call` events and `settingChanged.source`.
///
/// ```swift
/// if recordedFormat < RecordingFormat.current { print("recorded by an older engine") }
/// ```
public enum RecordingFormat {
    /// The format this engine writes.
    public static let current = 2
}
