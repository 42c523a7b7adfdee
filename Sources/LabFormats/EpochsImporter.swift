import Decoding
import Foundation

/// Reads trials already cut from their recording, as pyntbci's datasets
/// keep them in a NumPy `.npz`, or as a MATLAB user saves them in a
/// MAT-file (level 5, `MATFile`): `X` (trials × channels × samples), `y`
/// (each trial's class, from 0), `V` (classes × samples at the EEG's rate,
/// one code cycle or more; repeated to the trial's length) and `fs` (Hz).
/// `--codes` replaces or supplies `V`. There is no continuous context:
/// filters run on each trial, as on any dataset of cut trials
/// (Protocols/dataset-import.md, *Epochs*).
///
/// ```swift
/// let (dataset, notes) = try EpochsImporter.read(URL(fileURLWithPath: "thielen2021_sub-01.npz"))
/// print(dataset.header.nTrials, notes)     // 100, ["X taken as volts (RMS …) and written in µV; …"]
/// ```
public enum EpochsImporter {
    /// What unit `X` is in; `auto` takes volts when its RMS is under
    /// ``voltsBelowRMS`` (EEG in volts is microvolts × 10⁻⁶), else µV.
    public enum Units: String, CaseIterable, Sendable {
        case auto, volts, microvolts
    }

    /// With ``Units/auto``: an RMS of `X` under this is taken as volts.
    public static let voltsBelowRMS = 0.01

    /// The trials in the `.npz` or MAT-file at `url`, and what was noticed on the way
    /// (the unit taken). `codes` (classes × bits at `codeRate` bits per
    /// second from each trial's start) replaces `V`; `classes` keeps the
    /// first N classes. Throws ``LabFormatError`` naming the file, the array
    /// and the reason.
    public static func read(_ url: URL, units: Units = .auto, codes: [[UInt8]]? = nil, codeRate: Double = 60,
                            classes: Int? = nil) throws -> (dataset: TrialsDataset, notes: [String]) {
        let name = url.lastPathComponent
        let (arrays, skipped, texts, container) = try self.arrays(url, name: name)
        func array(_ key: String) throws -> NumericArray {
            if let why = skipped[key] { throw LabFormatError("\(name): \(key)", why) }
            guard let found = arrays[key] else {
                throw LabFormatError(name, "no \(key) array (found \((Array(arrays.keys) + skipped.keys).sorted().joined(separator: ", ")); epoched trials need X, y and fs, and V or --codes)")
            }
            return found
        }
        let x = try array("X"), y = try array("y"), rate = try array("fs")
        guard x.dims.count == 3, x.dims.allSatisfy({ $0 > 0 }) else {
            throw LabFormatError("\(name): X", "shape \(x.shapeText): expected trials × channels × samples")
        }
        let (trials, channels, samples) = (x.dims[0], x.dims[1], x.dims[2])
        guard rate.values.count == 1, let fs = rate.values.first, fs.isFinite, fs > 0 else {
            throw LabFormatError("\(name): fs", "expected one positive sample rate, got \(rate.values.prefix(3).map { "\($0)" }.joined(separator: ", "))")
        }
        guard y.values.count == trials, y.dims.filter({ $0 != 1 }).count <= 1 else {
            throw LabFormatError("\(name): y", "shape \(y.shapeText): expected one class per trial, \(trials) (X has \(trials) trials)")
        }
        if let bad = y.values.firstIndex(where: { $0 < 0 || $0 != $0.rounded() || $0 > 65_535 }) {
            throw LabFormatError("\(name): y", "trial \(bad) has class \(y.values[bad]): classes are whole numbers from 0")
        }
        if let bad = x.values.firstIndex(where: { !$0.isFinite }) {
            let (trial, rest) = bad.quotientAndRemainder(dividingBy: channels * samples)
            throw LabFormatError("\(name): X", "trial \(trial), channel \(rest / samples), sample \(rest % samples) is \(x.values[bad])")
        }
        if codes == nil, let why = skipped["V"] { throw LabFormatError("\(name): V", why) }
        var stimulus = try self.stimulus(arrays["V"], codes: codes, codeRate: codeRate, fs: fs, samples: samples, name: name)
        if let classes {
            guard classes >= 2, classes <= stimulus.count else {
                throw LabFormatError("--classes", "\(classes): the codes have \(stimulus.count) classes")
            }
            stimulus = Array(stimulus.prefix(classes))
        }
        if let bad = y.values.firstIndex(where: { Int($0) >= stimulus.count }) {
            let fromOne = y.values.min() == 1 && y.values.max() == Double(stimulus.count)
            throw LabFormatError("\(name): y", "trial \(bad) has class \(Int(y.values[bad])), outside the \(stimulus.count) codes"
                                 + (fromOne ? " (these classes count from 1, as MATLAB does; classes count from 0: save y - 1)" : ""))
        }
        let (scale, note) = unitScale(x.values, segment: samples, units: units)
        var notes = [note]
        if let codes, let warning = CodesFile.orientationWarning(codes) { notes.append(warning) }
        let names = texts["ch_names"] ?? texts["channels"]
        if let names, names.count != channels {
            notes.append("\(texts["ch_names"] != nil ? "ch_names" : "channels") holds \(names.count) names for \(channels) channels: left out")
        }
        let header = DatasetHeader(fs: fs, nTrials: trials, nChannels: channels, nSamples: samples, nClasses: stimulus.count,
                                   channels: names?.count == channels ? names : nil,
                                   filtered: "unknown (trials cut upstream)",
                                   source: "\(container) epochs: \(name)")
        do {
            let dataset = try TrialsDataset(header: header, data: x.values.map { Float($0 * scale) }, labels: y.values.map { Int32($0) },
                                            stimulus: stimulus.flatMap { $0 })
            return (dataset, notes)
        } catch let error as DatasetError {
            throw LabFormatError(name, error.description)
        }
    }

    /// The numeric arrays of the `.npz` (its `.npy` members, `X.npy` → `X`)
    /// or MAT-file (its variables) at `url`, why each other member or
    /// variable could not be read as one (an error only if it is needed),
    /// the text arrays (channel names), and which of the two files it was.
    private static func arrays(_ url: URL, name: String) throws -> ([String: NumericArray], [String: String], [String: [String]], String) {
        // The first bytes tell the two apart; a MAT-file is then read whole, a .npz member by member.
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 6) ?? Data()
        } catch {
            throw LabFormatError.unreadable(url, error)
        }
        if head.starts(with: Array("MATLAB".utf8)) {
            let bytes: [UInt8]
            do { bytes = [UInt8](try Data(contentsOf: url)) } catch { throw LabFormatError.unreadable(url, error) }
            let file = try MATFile(bytes: bytes, name: name)
            guard !file.arrays.isEmpty || !file.skipped.isEmpty || !file.texts.isEmpty else { throw LabFormatError(name, "the MAT-file holds no variable") }
            var skipped = file.skipped.mapValues { "a MATLAB \($0), not a numeric array" }
            for key in file.texts.keys { skipped[key] = "a MATLAB text, not a numeric array" }
            return (file.arrays, skipped, file.texts, "MAT-file")
        }
        guard head.starts(with: [0x50, 0x4B]) else {
            // Neither magic: say so, rather than a zip reader's complaint about a file that is no zip.
            throw LabFormatError(name, "neither a MAT-file (level 5: its first bytes are \"MATLAB\") nor a NumPy .npz (a zip archive: \"PK\"): is it another format? (dataset inspect tells)")
        }
        var arrays: [String: NumericArray] = [:], unread: [String: String] = [:], texts: [String: [String]] = [:]
        for (key, bytes, array) in try NumericArray.npzMembers(url, name: name) {
            // Arrays beside the four (channel names, events, …) may be of any dtype: only a needed one must read.
            switch array {
            case .success(let array): arrays[key] = array
            case .failure(let error):
                unread[key] = error.reason
                if key == "ch_names" || key == "channels" { texts[key] = try? NumericArray.texts(npy: bytes, subject: name) }
            }
        }
        return (arrays, unread, texts, "NumPy .npz")
    }

    /// Each class's stimulus over a trial's `samples`: from `codes` at
    /// `codeRate` when given, else `V` (samples at `fs`) repeated or cut to length.
    private static func stimulus(_ v: NumericArray?, codes: [[UInt8]]?, codeRate: Double, fs: Double, samples: Int,
                                 name: String) throws -> [[UInt8]] {
        if let codes {
            guard let bits = codes.first?.count, bits > 0 else { throw LabFormatError("--codes", "no codes") }
            return codes.map { code in (0..<samples).map { i in code[Int((Double(i) / fs * codeRate).rounded(.down)) % bits] } }
        }
        guard let v else { throw LabFormatError(name, "no V array: give the codes with --codes (and --code-rate)") }
        guard v.dims.count == 2, v.dims.allSatisfy({ $0 > 0 }) else {
            throw LabFormatError("\(name): V", "shape \(v.shapeText): expected classes × samples")
        }
        let (rows, width) = v.shape
        if let bad = v.values.firstIndex(where: { $0 != 0 && $0 != 1 }) {
            throw LabFormatError("\(name): V", "value \(v.values[bad]) at class \(bad / width), sample \(bad % width) is not 0 or 1")
        }
        // A code at the EEG's rate spans many more samples than there are classes: more rows than columns is V transposed.
        guard rows <= width else {
            throw LabFormatError("\(name): V", "shape \(v.shapeText): more classes than samples; V is classes × samples (save its transpose)")
        }
        return (0..<rows).map { r in (0..<samples).map { i in v.values[r * width + i % width] == 1 ? 1 : 0 } }
    }

    /// The factor to µV for `values` in `units`, and a sentence saying which
    /// unit was taken. The RMS is taken about each run of `segment` values'
    /// mean (one channel of one trial), so that the DC offsets of raw
    /// amplifier data (a Cyton's are −0.1 to −0.2 V) do not pass volts off as µV.
    static func unitScale(_ values: [Double], segment: Int, units: Units) -> (Double, String) {
        var squares = 0.0
        for start in stride(from: 0, to: values.count, by: max(segment, 1)) {
            let run = values[start..<min(start + max(segment, 1), values.count)]
            let mean = run.reduce(0, +) / Double(run.count)
            squares += run.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        let rms = (squares / Double(max(values.count, 1))).squareRoot()
        let rmsText = String(format: "%.3g", rms)
        switch units {
        case .volts: return (1e6, "X in volts (RMS \(rmsText) V) written in µV")
        case .microvolts: return (1, "X in µV (RMS \(rmsText) µV)")
        case .auto where rms < voltsBelowRMS:
            return (1e6, "X taken as volts (RMS \(rmsText), under \(voltsBelowRMS)) and written in µV; --units microvolts if it was not")
        case .auto:
            return (1, "X taken as µV (RMS \(rmsText), \(voltsBelowRMS) or more); --units volts if it was not")
        }
    }
}
