/// A continuous EEG recording as a lab format holds it, before any trial is
/// cut: every importer (XDF, BDF/EDF+, BrainVision, BIDS) reads its file into
/// one, and ``MarkerTrialCutter`` turns it into a trials dataset.
public struct ContinuousRecording: Sendable, Equatable {
    /// Samples per second (nominal, or fitted from the time stamps where the
    /// format gives them).
    public var sampleRate: Double
    /// Channel names, one per channel.
    public var channelNames: [String]
    /// Channels × samples, in the file's physical unit (µV where known).
    public var samples: [[Float]]
    /// The markers (triggers, annotations, marker-stream strings) in time order.
    public var markers: [RecordingMarker]
    /// A one-line description for the dataset header's `source`: format,
    /// program, file name.
    public var source: String
    /// Filtering the source program says it applied, nil when none is stated.
    public var filtered: String?
    /// What the importer noticed and survived (clock resets, gaps, repaired
    /// samples), one line each; empty when the file was clean.
    public var warnings: [String] = []
    /// Channels the importer left out because they hold no finite sample
    /// (each also named in a warning); not among ``channelNames``.
    public var deadChannels: [String] = []
    /// Channels of the file the importer did not read, by name, with why
    /// (an EDF signal at another sample rate); not among ``channelNames``.
    public var otherRateChannels: [String: String] = [:]
    /// The unit of each channel whose unit is no voltage (µS, a sensor's
    /// own scale, none), by channel name; those channels are not EEG and an
    /// import leaves them out unless chosen (see ``keepingEEG(selection:)``).
    public var otherUnits: [String: String] = [:]
    /// Stretches of samples (indices) that were missing for longer than a
    /// dropout (NaN in the file) and were filled only so that the filters
    /// run on: trials that overlap one are left out.
    public var gaps: [Range<Int>] = []
    /// Where the time stamps skipped ahead (samples lost in transit, an XDF
    /// stream paused) and the parts were joined back to back: the first
    /// sample after each skip, and the seconds missing there. The stimulus
    /// runs on through a skip while the samples do not, so trials over one
    /// are left out.
    public var skips: [Skip] = []

    /// A skip in the time stamps: the first sample after it, and the seconds missing.
    public struct Skip: Sendable, Equatable {
        public var sample: Int
        public var seconds: Double
    }

    /// Samples per channel.
    public var sampleCount: Int { samples.first?.count ?? 0 }
}

/// One marker of a ``ContinuousRecording``: a trigger value, an annotation or
/// a marker-stream string, at a sample of the recording.
public struct RecordingMarker: Sendable, Equatable {
    /// The sample index (0-based) at or after the marker's time.
    public var sample: Int
    /// Seconds from the recording's first sample.
    public var seconds: Double
    /// Duration in seconds, where the format gives one.
    public var duration: Double?
    /// The marker's text: a marker string, an annotation, or a trigger value
    /// in decimal (BDF Status, BrainVision "S253" stays "S253").
    public var text: String
    /// True when the marker's time lies in a skip of the EEG's time stamps
    /// (see ``ContinuousRecording/skips``): no sample was recorded then, and
    /// ``sample`` is the first after the skip.
    public var inSkip = false
}
