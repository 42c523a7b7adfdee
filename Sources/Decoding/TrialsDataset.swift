import Foundation
import JSONSupport

/// A calibration dataset of trials, stored as the folder of
/// `Protocols/dataset.md`: `header.json`, `X.f32` (trials × channels ×
/// samples, float32 LE), `y.i32` (target class per trial, int32 LE) and
/// `V.u8` (classes × samples: each class's stimulus state per sample).
///
/// ```swift
/// let dataset = try TrialsDataset.read(from: URL(fileURLWithPath: "calibration"))
/// let first = dataset.trial(0)              // channels × samples
/// let itsCode = dataset.stimulus(ofClass: Int(dataset.labels[0]))
/// try dataset.write(to: URL(fileURLWithPath: "copy"))
/// ```
public struct TrialsDataset: Equatable, Sendable {
    /// Sizes and sample rate.
    public let header: DatasetHeader
    /// X, trials × channels × samples.
    public let data: [Float]
    /// y, the target class of each trial (0-based).
    public let labels: [Int32]
    /// V, classes × samples.
    public let stimulus: [UInt8]
    /// The continuous recording the trials were cut from, when the source
    /// was continuous (an imported recording); nil for cut trials only.
    public let context: ContinuousContext?

    /// A dataset from its parts; throws ``DatasetError`` naming the part that
    /// disagrees with the header.
    public init(header: DatasetHeader, data: [Float], labels: [Int32], stimulus: [UInt8],
                context: ContinuousContext? = nil) throws {
        let h = header
        guard h.fs > 0, h.fs.isFinite else { throw DatasetError.inconsistent(file: "header.json", reason: "fs must be positive, got \(h.fs)") }
        guard h.fs >= DatasetHeader.lowestRate else {
            throw DatasetError.inconsistent(file: "header.json", reason: "fs \(h.fs) Hz is below \(Int(DatasetHeader.lowestRate)) Hz, slower than any EEG amplifier")
        }
        guard h.fs <= DatasetHeader.highestRate else {
            throw DatasetError.inconsistent(file: "header.json", reason: "fs \(h.fs) Hz is above \(Int(DatasetHeader.highestRate)) Hz, faster than any EEG amplifier")
        }
        for (name, value) in [("n_trials", h.nTrials), ("n_channels", h.nChannels), ("n_samples", h.nSamples), ("n_classes", h.nClasses)] where value <= 0 {
            throw DatasetError.inconsistent(file: "header.json", reason: "\(name) must be positive, got \(value)")
        }
        // The sizes' products (bytes of each file) must be countable: a header with a size of 2^62 is refused here,
        // before any product below could overflow.
        var sizes = [("n_trials × n_channels × n_samples × 4", [h.nTrials, h.nChannels, h.nSamples, 4]),
                     ("n_classes × n_samples", [h.nClasses, h.nSamples])]
        if let n = h.nContinuous { sizes.append(("n_channels × n_continuous × 4", [h.nChannels, max(n, 1), 4])) }
        for (name, factors) in sizes {
            var bytes = 1, overflow = false
            for f in factors where !overflow { (bytes, overflow) = bytes.multipliedReportingOverflow(by: f) }
            if overflow {
                throw DatasetError.inconsistent(file: "header.json", reason: "\(name) is more bytes than any file holds (the sizes are \(factors.dropLast(factors.last == 4 ? 1 : 0).map(String.init).joined(separator: " × ")))")
            }
        }
        if let names = h.channels, names.count != h.nChannels {
            throw DatasetError.inconsistent(file: "header.json", reason: "channels names \(names.count), n_channels is \(h.nChannels)")
        }
        if let context {
            guard h.nContinuous == context.length, context.samples.count == h.nChannels * context.length else {
                throw DatasetError.inconsistent(file: "continuous.f32", reason: "expected \(h.nChannels * (h.nContinuous ?? 0) * 4) bytes (n_channels × n_continuous × 4), found \(context.samples.count * 4)")
            }
            if let bad = context.samples.firstIndex(where: { !$0.isFinite }) {
                throw DatasetError.inconsistent(file: "continuous.f32", reason: "value \(bad) (channel \(bad / context.length), sample \(bad % context.length)) is \(context.samples[bad]), not finite")
            }
            for c in 0..<h.nChannels {
                let row = context.samples[(c * context.length)..<((c + 1) * context.length)]
                if let (bad, typical) = Self.firstImplausible(row) {
                    throw Self.implausible("continuous.f32", at: "value \(bad) (channel \(c), sample \(bad - c * context.length))",
                                           context.samples[bad], typical)
                }
            }
            guard context.onsets.count == h.nTrials else {
                throw DatasetError.inconsistent(file: "onsets.i32", reason: "expected \(h.nTrials * 4) bytes (n_trials × 4), found \(context.onsets.count * 4)")
            }
            if let bad = context.onsets.firstIndex(where: { $0 < 0 || $0 + h.nSamples > context.length }) {
                throw DatasetError.inconsistent(file: "onsets.i32", reason: "trial \(bad) starts at sample \(context.onsets[bad]): its \(h.nSamples) samples do not fit in the \(context.length) of continuous.f32")
            }
        } else if h.nContinuous != nil {
            throw DatasetError.missingFile("continuous.f32")
        }
        let expectedX = h.nTrials * h.nChannels * h.nSamples
        guard data.count == expectedX else {
            throw DatasetError.inconsistent(file: "X.f32", reason: "expected \(expectedX * 4) bytes (n_trials × n_channels × n_samples × 4), found \(data.count * 4)")
        }
        if let bad = data.firstIndex(where: { !$0.isFinite }) {
            let perTrial = h.nChannels * h.nSamples
            throw DatasetError.inconsistent(file: "X.f32", reason: "value \(bad) (trial \(bad / perTrial), channel \((bad % perTrial) / h.nSamples), "
                + "sample \(bad % h.nSamples)) is \(data[bad]), not finite")
        }
        for c in 0..<h.nChannels where context == nil {
            var row: [Float] = []
            row.reserveCapacity(h.nTrials * h.nSamples)
            for t in 0..<h.nTrials {
                let start = (t * h.nChannels + c) * h.nSamples
                row += data[start..<(start + h.nSamples)]
            }
            if let (index, typical) = Self.firstImplausible(row[...]) {
                let (t, s) = (index / h.nSamples, index % h.nSamples), bad = (t * h.nChannels + c) * h.nSamples + s
                throw Self.implausible("X.f32", at: "value \(bad) (trial \(t), channel \(c), sample \(s))", data[bad], typical)
            }
        }
        if let context, let (t, c, s) = Self.firstDisagreement(data, context, h) {
            throw DatasetError.inconsistent(file: "X.f32", reason: "trial \(t), channel \(c), sample \(s) differs from continuous.f32 at onset \(context.onsets[t]) + \(s): "
                + "X.f32 holds the trials as cut from it; edit both, or remove continuous.f32 and onsets.i32 (and n_continuous) to keep X.f32 alone")
        }
        guard labels.count == h.nTrials else {
            throw DatasetError.inconsistent(file: "y.i32", reason: "expected \(h.nTrials * 4) bytes (n_trials × 4), found \(labels.count * 4)")
        }
        if let bad = labels.firstIndex(where: { $0 < 0 || Int($0) >= h.nClasses }) {
            throw DatasetError.inconsistent(file: "y.i32", reason: "trial \(bad) has class \(labels[bad]), outside 0..<\(h.nClasses)")
        }
        guard stimulus.count == h.nClasses * h.nSamples else {
            throw DatasetError.inconsistent(file: "V.u8", reason: "expected \(h.nClasses * h.nSamples) bytes (n_classes × n_samples), found \(stimulus.count)")
        }
        self.header = header
        self.data = data
        self.labels = labels
        self.stimulus = stimulus
        self.context = context
    }

    /// How many times its channel's median magnitude a finite sample may be:
    /// past it (1e30 in a recording of tens of µV, or of raw volts with
    /// offsets) it is a damaged file, not EEG, and the continuous filters
    /// would spread it over every trial after it.
    public static let implausibleRatio: Float = 1e6

    /// The index in `row` (one channel's samples) of the first more than
    /// ``implausibleRatio`` times the row's median magnitude, with that
    /// median; nil when none is, or the median is 0 (a flat or sparse channel).
    private static func firstImplausible(_ row: ArraySlice<Float>) -> (Int, Float)? {
        guard !row.isEmpty else { return nil }
        var magnitudes = row.map(abs)
        let middle = magnitudes.count / 2
        magnitudes.sort()
        let typical = magnitudes[middle]
        guard typical > 0, magnitudes[magnitudes.count - 1] > typical * implausibleRatio else { return nil }
        return row.firstIndex { abs($0) > typical * implausibleRatio }.map { ($0, typical) }
    }

    /// The one line for a sample ``firstImplausible(_:)`` found in `file`.
    private static func implausible(_ file: String, at place: String, _ value: Float, _ typical: Float) -> DatasetError {
        .inconsistent(file: file, reason: "\(place) is \(value), over \(Int(implausibleRatio)) times the channel's median magnitude (\(typical)): "
            + "no amplifier records that; the file is damaged")
    }

    /// The first (trial, channel, sample) at which `data` is not the cut of
    /// the continuous recording that `Protocols/dataset.md` says it is.
    private static func firstDisagreement(_ data: [Float], _ context: ContinuousContext, _ h: DatasetHeader) -> (Int, Int, Int)? {
        for t in 0..<h.nTrials {
            for c in 0..<h.nChannels {
                let cut = (t * h.nChannels + c) * h.nSamples, source = c * context.length + context.onsets[t]
                for s in 0..<h.nSamples where data[cut + s].bitPattern != context.samples[source + s].bitPattern { return (t, c, s) }
            }
        }
        return nil
    }

    /// A dataset cut from a continuous recording: trial `t` is the
    /// `header.nSamples` samples of `continuous` (channels × `length`,
    /// channel-major) from `onsets[t]`. `header.nContinuous` is set from it.
    public init(header: DatasetHeader, continuous: [Float], length: Int, onsets: [Int], labels: [Int32], stimulus: [UInt8]) throws {
        var h = header
        h.nContinuous = length
        let context = ContinuousContext(samples: continuous, length: length, onsets: onsets)
        var x: [Float] = []
        if continuous.count == h.nChannels * length, onsets.count == h.nTrials,
           onsets.allSatisfy({ $0 >= 0 && $0 + h.nSamples <= length }) {
            x.reserveCapacity(h.nTrials * h.nChannels * h.nSamples)
            for onset in onsets {
                for c in 0..<h.nChannels { x += continuous[(c * length + onset)..<(c * length + onset + h.nSamples)] }
            }
        }
        try self.init(header: h, data: x, labels: labels, stimulus: stimulus, context: context)
    }

    /// Every trial (trials × channels × samples) after `preprocessor`: with
    /// a continuous context the filter runs once over the whole recording
    /// (primed on its first sample) and the trials are cut from its output,
    /// so no trial carries the filter's start-up; without one each trial is
    /// filtered on its own, primed on its first sample. The one path by
    /// which offline evaluation and calibration preprocess a dataset.
    public func preprocessedTrials(_ preprocessor: Preprocessor) -> [[[Double]]] {
        guard let context else { return (0..<header.nTrials).map { preprocessor.apply(toTrial: trial($0)) } }
        let continuous = (0..<header.nChannels).map(context.channel)
        let clean = preprocessor.apply(toTrial: continuous)
        return context.onsets.map { onset in clean.map { Array($0[onset..<(onset + header.nSamples)]) } }
    }

    /// Trial `index` as channels × samples.
    public func trial(_ index: Int) -> [[Double]] {
        let c = header.nChannels, n = header.nSamples
        return (0..<c).map { ch in
            let start = (index * c + ch) * n
            return data[start..<(start + n)].map(Double.init)
        }
    }

    /// Class `index`'s stimulus state per sample.
    public func stimulus(ofClass index: Int) -> [UInt8] {
        Array(stimulus[(index * header.nSamples)..<((index + 1) * header.nSamples)])
    }

    /// Writes the four files into `directory` (created if needed), and the
    /// continuous context's two when there is one; a context left there by
    /// an earlier dataset is removed when this one has none.
    public func write(to directory: URL) throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatasetError.unreadable(file: directory.path, reason: "cannot create the folder: \(FileProblem.whyNotWritten(directory, error, folder: true))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(try encoder.encode(header), "header.json", in: directory)
        try write(Self.bytes(data.map { $0.bitPattern }), "X.f32", in: directory)
        try write(Self.bytes(labels.map { UInt32(bitPattern: $0) }), "y.i32", in: directory)
        try write(Data(stimulus), "V.u8", in: directory)
        if let context {
            try write(Self.bytes(context.samples.map { $0.bitPattern }), "continuous.f32", in: directory)
            try write(Self.bytes(context.onsets.map { UInt32(bitPattern: Int32($0)) }), "onsets.i32", in: directory)
        } else {
            for name in ["continuous.f32", "onsets.i32"] where fm.fileExists(atPath: directory.appendingPathComponent(name).path) {
                do { try fm.removeItem(at: directory.appendingPathComponent(name)) } catch {
                    throw DatasetError.unreadable(file: name, reason: "cannot remove the earlier dataset's: \(error.localizedDescription)")
                }
            }
        }
    }

    /// Reads and checks the folder; throws ``DatasetError`` naming the first
    /// missing or inconsistent file.
    public static func read(from directory: URL) throws -> TrialsDataset {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) else {
            throw DatasetError.unreadable(file: directory.path, reason: "no such folder")
        }
        guard isFolder.boolValue else {
            throw DatasetError.unreadable(file: directory.path, reason: "a file, not a trials dataset folder (a recording is read with noisetag dataset import FILE --out DIR first)")
        }
        guard FileManager.default.isReadableFile(atPath: directory.path), FileManager.default.isExecutableFile(atPath: directory.path) else {
            throw DatasetError.unreadable(file: directory.path, reason: "permission denied")
        }
        let headerData = try load("header.json", in: directory)
        let header: DatasetHeader
        do {
            header = try JSONDecoder().decode(DatasetHeader.self, from: headerData)
        } catch {
            throw DatasetError.unreadable(file: "header.json", reason: JSONProblem.describe(error, decoding: DatasetHeader.self, from: headerData))
        }
        let x = try load("X.f32", in: directory)
        let y = try load("y.i32", in: directory)
        let v = try load("V.u8", in: directory)
        guard x.count % 4 == 0 else { throw DatasetError.inconsistent(file: "X.f32", reason: "\(x.count) bytes is not a whole number of float32 values") }
        guard y.count % 4 == 0 else { throw DatasetError.inconsistent(file: "y.i32", reason: "\(y.count) bytes is not a whole number of int32 values") }
        var context: ContinuousContext?
        if let length = header.nContinuous {
            guard length > 0 else { throw DatasetError.inconsistent(file: "header.json", reason: "n_continuous must be positive, got \(length)") }
            let c = try load("continuous.f32", in: directory)
            let o = try load("onsets.i32", in: directory)
            guard c.count % 4 == 0 else { throw DatasetError.inconsistent(file: "continuous.f32", reason: "\(c.count) bytes is not a whole number of float32 values") }
            guard o.count % 4 == 0 else { throw DatasetError.inconsistent(file: "onsets.i32", reason: "\(o.count) bytes is not a whole number of int32 values") }
            context = ContinuousContext(samples: words(c).map { Float(bitPattern: $0) }, length: length,
                                        onsets: words(o).map { Int(Int32(bitPattern: $0)) })
        }
        return try TrialsDataset(
            header: header,
            data: words(x).map { Float(bitPattern: $0) },
            labels: words(y).map { Int32(bitPattern: $0) },
            stimulus: [UInt8](v), context: context)
    }

    private static func load(_ name: String, in directory: URL) throws -> Data {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw DatasetError.missingFile(name) }
        do { return try JSONFile.contents(of: url) } catch { throw DatasetError.unreadable(file: name, reason: error.reason) }
    }

    private func write(_ data: Data, _ name: String, in directory: URL) throws {
        do { try data.write(to: directory.appendingPathComponent(name), options: .atomic) } catch {
            throw DatasetError.unreadable(file: name, reason: "cannot write: \(FileProblem.whyNotWritten(directory.appendingPathComponent(name), error))")
        }
    }

    private static func words(_ data: Data) -> [UInt32] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 4).map { i in
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
        }
    }

    private static func bytes(_ words: [UInt32]) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(words.count * 4)
        for w in words { out += [UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF), UInt8(w >> 24)] }
        return Data(out)
    }
}
