/// The `header.json` of a trials dataset (see `Protocols/dataset.md`).
///
/// ```swift
/// let header = DatasetHeader(fs: 250, nTrials: 90, nChannels: 8, nSamples: 1050, nClasses: 9)
/// ```
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

    enum CodingKeys: String, CodingKey {
        case fs, nTrials = "n_trials", nChannels = "n_channels", nSamples = "n_samples", nClasses = "n_classes"
    }

    /// A header from its five fields.
    ///
    /// ```swift
    /// let header = DatasetHeader(fs: 250, nTrials: 10, nChannels: 8, nSamples: 500, nClasses: 4)
    /// ```
    public init(fs: Double, nTrials: Int, nChannels: Int, nSamples: Int, nClasses: Int) {
        (self.fs, self.nTrials, self.nChannels, self.nSamples, self.nClasses) = (fs, nTrials, nChannels, nSamples, nClasses)
    }
}
