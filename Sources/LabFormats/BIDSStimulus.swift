import Foundation

/// A BIDS stimulus file: `*_stim.tsv.gz` (gzip-compressed, tab-separated,
/// no header row, one row per sample) with its `*_stim.json` sidecar
/// (`SamplingFrequency`, `StartTime`, `Columns`). The noisetag export
/// writes one column per Utopia object, named `obj_<id>`, each row the state
/// (0 off, 1 on, other values as sent) each object showed at that EEG sample:
/// the state of its latest STIMULUSEVENT at or before the sample, 0 before
/// its first. `obj_0` is the cued target's own state in training and Verify
/// trials (a mirror of the target's column).
///
/// ```swift
/// let stimulus = BIDSStimulus(sampleRate: 250, columns: ["obj_1", "obj_2"], states: [[0, 1, 1], [1, 1, 0]])
/// try stimulus.write(to: eeg.appendingPathComponent("sub-01_task-cvep_stim.tsv.gz"))
/// let back = try BIDSStimulus.read(eeg.appendingPathComponent("sub-01_task-cvep_stim.tsv.gz"))
/// ```
public struct BIDSStimulus: Sendable, Equatable {
    /// Rows per second (the EEG's rate).
    public var sampleRate: Double
    /// Seconds from the EEG's first sample to the first row.
    public var startTime: Double = 0
    /// Column names (`obj_1`, …).
    public var columns: [String]
    /// Columns × rows.
    public var states: [[UInt8]]

    /// Rows.
    public var rowCount: Int { states.first?.count ?? 0 }

    /// The object ID a column names (`obj_12` → 12), nil for another name.
    public static func objectID(_ column: String) -> Int? {
        guard column.hasPrefix("obj_") else { return nil }
        return Int(column.dropFirst(4))
    }

    /// A stimulus from its parts.
    public init(sampleRate: Double, startTime: Double = 0, columns: [String], states: [[UInt8]]) {
        self.sampleRate = sampleRate
        self.startTime = startTime
        self.columns = columns
        self.states = states
    }

    /// The sidecar's name beside the data file `url` (`…_stim.tsv.gz` → `…_stim.json`).
    public static func sidecar(of url: URL) -> URL {
        let name = url.lastPathComponent
        let stem = name.hasSuffix(".tsv.gz") ? String(name.dropLast(7)) : (name as NSString).deletingPathExtension
        return url.deletingLastPathComponent().appendingPathComponent(stem + ".json")
    }

    /// The sidecar's JSON object; `descriptions` adds one entry per column.
    public func sidecarObject(descriptions: [String: String] = [:]) -> [String: Any] {
        var object: [String: Any] = ["SamplingFrequency": sampleRate, "StartTime": startTime, "Columns": columns]
        for (column, description) in descriptions { object[column] = ["Description": description] }
        return object
    }

    /// Writes the gzip-compressed table to `url` and its sidecar beside it.
    public func write(to url: URL, descriptions: [String: String] = [:]) throws {
        var text = [UInt8]()
        text.reserveCapacity(rowCount * columns.count * 2)
        let digits = (0...255).map { Array(String($0).utf8) }
        for row in 0..<rowCount {
            for c in states.indices {
                if c > 0 { text.append(0x09) }
                text += digits[Int(states[c][row])]
            }
            text.append(0x0A)
        }
        let packed = try Gzip.compress(Data(text))
        let json = try JSONSerialization.data(withJSONObject: sidecarObject(descriptions: descriptions),
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        for (data, file) in [(packed, url), (json + Data("\n".utf8), Self.sidecar(of: url))] {
            do { try data.write(to: file) } catch { throw LabFormatError(file.path, "cannot write: \((error as NSError).localizedDescription)") }
        }
    }

    /// Reads `url` (`*_stim.tsv.gz`) and its sidecar; errors name the file.
    public static func read(_ url: URL) throws -> BIDSStimulus {
        let name = url.lastPathComponent
        let sidecarURL = sidecar(of: url)
        guard let json = try? Data(contentsOf: sidecarURL) else { throw LabFormatError(sidecarURL.lastPathComponent, "missing (the stimulus file's sidecar)") }
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw LabFormatError(sidecarURL.lastPathComponent, "is not a JSON object")
        }
        guard let rate = (object["SamplingFrequency"] as? NSNumber)?.doubleValue, rate.isFinite, rate > 0 else {
            throw LabFormatError(sidecarURL.lastPathComponent, "no positive SamplingFrequency")
        }
        guard let columns = object["Columns"] as? [String], !columns.isEmpty else {
            throw LabFormatError(sidecarURL.lastPathComponent, "no Columns")
        }
        let start = (object["StartTime"] as? NSNumber)?.doubleValue ?? 0
        let packed: Data
        do { packed = try Data(contentsOf: url) } catch { throw LabFormatError(name, "cannot read: \((error as NSError).localizedDescription)") }
        let bytes = [UInt8](try Gzip.decompress(packed, name: name))
        var states = [[UInt8]](repeating: [], count: columns.count)
        var line = 0, column = 0, value = 0, digits = 0
        func finishCell() throws {
            guard digits > 0, value <= 255 else {
                throw LabFormatError(name, "line \(line + 1), column \(column + 1): not a state from 0 to 255")
            }
            guard column < columns.count else { throw LabFormatError(name, "line \(line + 1): more cells than the \(columns.count) Columns") }
            states[column].append(UInt8(value))
            column += 1
            value = 0
            digits = 0
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                if value > 255 { throw LabFormatError(name, "line \(line + 1), column \(column + 1): not a state from 0 to 255") }
            case 0x09: try finishCell()
            case 0x0A:
                try finishCell()
                guard column == columns.count else { throw LabFormatError(name, "line \(line + 1): \(column) cells, the sidecar names \(columns.count) Columns") }
                line += 1
                column = 0
            case 0x0D: continue
            default: throw LabFormatError(name, "line \(line + 1), column \(column + 1): not a state from 0 to 255")
            }
        }
        if digits > 0 || column > 0 {
            try finishCell()
            guard column == columns.count else { throw LabFormatError(name, "line \(line + 1): \(column) cells, the sidecar names \(columns.count) Columns") }
        }
        return BIDSStimulus(sampleRate: rate, startTime: start, columns: columns, states: states)
    }
}
