/// The `header.json` of a trials dataset (see `Protocols/dataset.md`).
public struct DatasetHeader: Codable, Equatable, Sendable {
    /// Sample rate in Hz.
    public var fs: Double
    /// Number of trials.
    public var nTrials: Int
    /// Number of channels.
    public var nChannels: Int
    /// Samples per trial.
    public var nSamples: Int
    /// Number of classes (stimulus codes).
    public var nClasses: Int
    /// Samples per channel of the continuous recording the trials were cut
    /// from (`continuous.f32`), nil when the dataset holds the cut trials only.
    public var nContinuous: Int?
    /// Channel names, one per channel, when the source gave them.
    public var channels: [String]?
    /// What filtering the source applied before the dataset was written
    /// (e.g. "1-65 Hz band-pass, 50 Hz notch"); nil: raw.
    public var filtered: String?
    /// Where the data came from: the file, the program, the format.
    public var source: String?
    /// Channels of the recording the import left out because they held no
    /// finite sample (dead electrodes); nil when none was.
    public var deadChannels: [String]?

    /// The highest sample rate (Hz) a dataset may have: a rate above it is a
    /// damaged header, not an amplifier.
    public static let highestRate = 100_000.0
    /// The lowest sample rate (Hz) a dataset may have: below it no code of a
    /// flicker (60 bits a second and slower) could be sampled.
    public static let lowestRate = 1.0

    enum CodingKeys: String, CodingKey {
        case fs, nTrials = "n_trials", nChannels = "n_channels", nSamples = "n_samples", nClasses = "n_classes"
        case nContinuous = "n_continuous", channels, filtered, source, deadChannels = "dead_channels"
    }

    /// A header from its five required fields (and optionally the others).
    public init(fs: Double, nTrials: Int, nChannels: Int, nSamples: Int, nClasses: Int,
                nContinuous: Int? = nil, channels: [String]? = nil, filtered: String? = nil, source: String? = nil) {
        (self.fs, self.nTrials, self.nChannels, self.nSamples, self.nClasses) = (fs, nTrials, nChannels, nSamples, nClasses)
        (self.nContinuous, self.channels, self.filtered, self.source) = (nContinuous, channels, filtered, source)
    }
}
