/// How ``RecordingPlayback`` plays a recording into a decoder: how fast,
/// how many trials calibrate, what certainty presses, and how long it
/// waits for the decoder at each point where it must.
///
/// ```swift
/// var settings = PlaybackSettings()
/// settings.speed = 20                  // 20 × the recording's pace
/// settings.calibrationTrials = 5       // nil: PlaybackSettings.defaultCalibrationTrials(of:)
/// ```
public struct PlaybackSettings: Sendable, Equatable {
    /// How many times faster than the recording's own pace it streams (≥ 1).
    public var speed = 1.0
    /// Trials played as calibration trials (the first in time); nil: ``defaultCalibrationTrials(of:)``.
    public var calibrationTrials: Int?
    /// The certainty (1 − Perr) a press needs; nil: the decoder's CERTAINTYTHRESHOLD.
    public var certainty: Double?
    /// Seconds of EEG per DATAPACKET.
    public var packetSeconds = 0.04
    /// Screen frames per second: one STIMULUSEVENT per frame.
    public var frameRate = 60.0
    /// Seconds (wall clock) to wait for the decoder's fit once the first
    /// prediction trial is due; the fit itself starts at the end of
    /// calibration, so a fit done before then needs no wait at all.
    public var fitTimeout = 120.0
    /// Seconds (wall clock) to wait, at the end of a prediction trial, for the decoder's prediction on all of it.
    public var settleTimeout = 1.0

    /// Settings with the defaults: real time, half the trials to calibrate, the decoder's threshold.
    public init() {}

    /// Half the trials (rounded down), at least 2 (the decoder fits on no
    /// fewer) and at most all but one (so that one trial is predicted).
    public static func defaultCalibrationTrials(of trials: Int) -> Int { min(trials - 1, max(2, trials / 2)) }
}
