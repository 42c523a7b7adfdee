import Foundation

/// What a recording holds before any trial is cut: its streams, channels,
/// rate, length and markers, read as `noisetag dataset import` reads them.
/// It is what a user needs to choose `--stream`, `--markers`,
/// `--trial-start` and `--label` (`noisetag dataset inspect`).
public struct RecordingInventory: Sendable, Equatable, Encodable {
    /// One stream of an XDF file.
    public struct Stream: Sendable, Equatable, Encodable {
        /// Its `<name>` and `<type>`.
        public var name: String
        public var type: String
        /// Channels, and samples per channel in the file.
        public var channels: Int
        public var samples: Int
        /// Nominal samples per second; 0 for an irregular (marker) stream.
        public var nominalRate: Double
        /// The value format: float32, double64, int8 … int64 or string.
        public var format: String
        /// What the import takes it for: "eeg" or "markers"; nil when it
        /// leaves the stream out, or could not choose (see ``problem``).
        public var role: String?
    }

    /// The markers that share one text or, when the recording holds more
    /// than ``literalLimit`` distinct texts, one shape.
    public struct MarkerGroup: Sendable, Equatable, Encodable {
        /// The marker text; for a shape, the text with each run of digits
        /// written `<n>` (for example `start_cue;label=<n>`).
        public var text: String
        /// Markers in the group, and distinct texts among them.
        public var count: Int
        public var distinct: Int
        /// Up to five of its texts, in order of first appearance.
        public var examples: [String]
        /// Seconds from the recording's first sample to its first and last marker.
        public var first: Double
        public var last: Double
    }

    /// Distinct marker texts listed one by one; past it markers are grouped
    /// by shape (a c-VEP recording's trigger values rarely number more).
    public static let literalLimit = 40

    /// The format read, and the importer's one-line description of the file.
    public var format: LabFormat
    public var source: String?
    /// Every stream of an XDF file, in file order; empty for other formats.
    public var streams: [Stream] = []
    /// The EEG's channel names and rate, and samples per channel of the
    /// continuous recording (nil for trials cut upstream, which have none).
    public var channels: [String] = []
    public var sampleRate: Double?
    public var samples: Int?
    /// Markers in all, and grouped.
    public var markerCount = 0
    public var markers: [MarkerGroup] = []
    /// For files that carry their own trials (MindAffect savefiles, `.npz`
    /// and MAT-file epochs): trials, classes and seconds per trial.
    public var trials: Int?
    public var classes: Int?
    public var trialSeconds: Double?
    /// What the importer noticed and survived (clock resets, gaps, repairs).
    public var warnings: [String] = []
    /// Why the EEG and markers could not be read although the file could
    /// (an XDF file whose streams need `--stream` or `--markers`); nil when
    /// they were.
    public var problem: String?

    /// The recording at `url` (a file, or a BIDS folder), its format
    /// detected from the content unless `format` is given; `stream` and
    /// `markers` choose an XDF file's streams as the import does. Throws a
    /// ``LabFormatError`` (one line) when the file cannot be read at all.
    public static func read(_ url: URL, format: LabFormat? = nil, stream: String? = nil, markers: String? = nil) throws -> RecordingInventory {
        let kind = try LabFormat.resolve(format, url)
        var inventory = RecordingInventory(format: kind)
        let recording: ContinuousRecording
        switch kind {
        case .savefile, .npz, .mat:
            let (dataset, warnings) = kind == .savefile ? try SavefileImporter.readWithWarnings(url) : try EpochsImporter.read(url)
            let h = dataset.header
            inventory.source = h.source
            inventory.channels = h.channels ?? (1...h.nChannels).map { "\($0)" }
            inventory.sampleRate = h.fs
            inventory.samples = h.nContinuous
            inventory.trials = h.nTrials
            inventory.classes = h.nClasses
            inventory.trialSeconds = Double(h.nSamples) / h.fs
            inventory.warnings = warnings
            return inventory
        case .xdf:
            let file = try XDFImporter.file(url)
            inventory.streams = file.streams.map {
                Stream(name: $0.header.name, type: $0.header.type, channels: $0.header.channelCount, samples: $0.sampleCount,
                       nominalRate: $0.header.nominalRate, format: $0.header.format.rawValue)
            }
            do {
                let eeg = try XDFImporter.chooseEEG(file.streams, named: stream, file: url.lastPathComponent)
                for i in file.streams.indices where file.streams[i].id == eeg.id { inventory.streams[i].role = "eeg" }
                let marks = try XDFImporter.chooseMarkers(file.streams, named: markers, file: url.lastPathComponent)
                for i in file.streams.indices where file.streams[i].id == marks.id { inventory.streams[i].role = "markers" }
                recording = try XDFImporter.read(eeg: eeg, markers: marks, name: url.lastPathComponent, fileWarnings: file.warnings)
            } catch let error as LabFormatError {
                inventory.problem = "\(XDFImporter.cutShort(error, file))"
                return inventory
            }
        case .bdf, .edf, .brainvision, .bids: recording = try ContinuousRecording.read(url, format: kind)
        }
        inventory.source = recording.source
        inventory.channels = recording.channelNames
        inventory.sampleRate = recording.sampleRate
        inventory.samples = recording.sampleCount
        inventory.markerCount = recording.markers.count
        inventory.markers = groups(recording.markers)
        // The channels stay listed, for --channels to name; what the import leaves out by unit is said as it says it.
        do { inventory.warnings = try recording.keepingEEG(selection: nil).warnings } catch {
            inventory.warnings = recording.warnings + ["\(error)"]
        }
        return inventory
    }

    /// `markers` grouped by text, in order of first appearance; by shape
    /// (digit runs as `<n>`) when there are more than ``literalLimit``
    /// distinct texts.
    public static func groups(_ markers: [RecordingMarker]) -> [MarkerGroup] {
        let distinct = Set(markers.map(\.text)).count
        let key: (String) -> String = distinct <= literalLimit ? { $0 } : { shape(of: $0) }
        var groups: [MarkerGroup] = []
        var index: [String: Int] = [:]
        var texts: [Set<String>] = []
        for marker in markers {
            let k = key(marker.text)
            if let i = index[k] {
                groups[i].count += 1
                groups[i].last = marker.seconds
                if texts[i].insert(marker.text).inserted {
                    groups[i].distinct += 1
                    if groups[i].examples.count < 5 { groups[i].examples.append(marker.text) }
                }
            } else {
                index[k] = groups.count
                texts.append([marker.text])
                groups.append(MarkerGroup(text: k, count: 1, distinct: 1, examples: [marker.text], first: marker.seconds, last: marker.seconds))
            }
        }
        return groups
    }

    /// `text` with each run of ASCII digits written `<n>`.
    static func shape(of text: String) -> String {
        var out = ""
        var inDigits = false
        for c in text {
            if c.isASCII, c.isNumber {
                if !inDigits { out += "<n>" }
                inDigits = true
            } else {
                out.append(c)
                inDigits = false
            }
        }
        return out
    }
}
