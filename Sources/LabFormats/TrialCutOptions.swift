import Decoding

/// How trials are found in a recording's markers and which code each
/// flashed: the `noisetag dataset import` options `--trial-start`,
/// `--label`, `--codes`, `--code-rate`, `--classes`, `--trial-seconds`.
public struct TrialCutOptions: Sendable {
    /// A regular expression a marker's text matches when it starts a trial.
    public var trialStart: String
    /// A regular expression whose first capture group is the class index;
    /// taken from the latest matching marker at or before the trial start
    /// (which may be the trial-start marker itself), or with
    /// ``labelAfterStart`` the first at or after it.
    public var label: String
    /// Take each trial's label from the first matching marker at or after
    /// its start, before the next start (programs that send the class just
    /// after the flicker starts); `--label-after`.
    public var labelAfterStart = false
    /// The codes, classes × bits (0 or 1), one bit per `codeRate`-th of a second.
    public var codes: [[UInt8]]
    /// Bits per second (the presentation's frame rate over its frames per bit).
    public var codeRate: Double = 60
    /// Keep the first N codes as the classes (nil: all).
    public var classes: Int?
    /// Trial length in seconds (nil: the shortest gap between trial starts,
    /// capped at the recording's end).
    public var trialSeconds: Double?
    /// A regular expression a marker's text matches when it ends a trial;
    /// without ``trialSeconds``, trials are as long as the shortest span from
    /// a start to the first end marker after it.
    public var trialEnd: String?

    /// Options from their parts.
    public init(trialStart: String, label: String, codes: [[UInt8]], codeRate: Double = 60,
                classes: Int? = nil, trialSeconds: Double? = nil) {
        self.trialStart = trialStart
        self.label = label
        self.codes = codes
        self.codeRate = codeRate
        self.classes = classes
        self.trialSeconds = trialSeconds
    }
}
