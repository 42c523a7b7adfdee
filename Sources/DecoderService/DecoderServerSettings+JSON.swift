import Decoding
import Foundation
import JSONSupport

/// The decoder's settings as a JSON object, for `--decoder-settings FILE`:
/// every key is optional (a missing one keeps its default), unknown keys and
/// values out of range are errors naming the key. `calibrationFolder` is a
/// path or null. The built-in simulated amplifier (`simulation`) is not part
/// of the file: it is set in code or by `--simulate`, and decoding leaves it nil.
///
/// ```swift
/// // {"predictionInterval": 0.2, "lineFrequency": 60, "calibrationFolder": null}
/// let settings = try DecoderServerSettings(contentsOf: URL(fileURLWithPath: "decoder.json"))
/// let data = try JSONEncoder().encode(settings)      // every key but simulation
/// ```
extension DecoderServerSettings: Codable {
    /// A key of the file.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The numeric keys, each with its setting and the values it accepts.
    private static func numbers() -> [(key: String, path: WritableKeyPath<DecoderServerSettings, Double>,
                                       range: ClosedRange<Double>, unit: String)] {
        [("predictionInterval", \.predictionInterval, 0.01...5, "s"),
         ("qualityInterval", \.qualityInterval, 0.01...60, "s"),
         ("heartbeatInterval", \.heartbeatInterval, 0.01...60, "s"),
         ("peerTimeout", \.peerTimeout, 0.1...3600, "s"),
         ("targetErrorRate", \.targetErrorRate, 0.0001...0.5, ""),
         ("idlePressesPerMinute", \.idlePressesPerMinute, 0.001...60, "per minute"),
         ("lineFrequency", \.lineFrequency, 1...999, "Hz")]
    }

    /// The whole-number keys, each with its setting and the values it accepts.
    private static func integers() -> [(key: String, path: WritableKeyPath<DecoderServerSettings, Int>, range: ClosedRange<Int>)] {
        [("zeroTrainTrials", \.zeroTrainTrials, 1...1000), ("adaptEvery", \.adaptEvery, 0...1000)]
    }

    private static let folderKey = "calibrationFolder"
    private static let referenceKey = "reference"

    /// Every key a file may hold, in the order they are written.
    public static var fileKeys: [String] { numbers().map(\.key) + integers().map(\.key) + [referenceKey, folderKey] }

    /// Reads the keys present over the defaults; throws `DecodingError`
    /// naming the key for an unknown key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: Key.self)
        let numbers = Self.numbers()
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            if let number = numbers.first(where: { $0.key == key.stringValue }) {
                let value = try container.decode(Double.self, forKey: key)
                guard number.range.contains(value) else {
                    let unit = number.unit.isEmpty ? "" : " " + number.unit
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "\(value)\(unit) is outside \(number.range.lowerBound)...\(number.range.upperBound)\(unit)")
                }
                self[keyPath: number.path] = value
            } else if let integer = Self.integers().first(where: { $0.key == key.stringValue }) {
                let number = try container.decode(Double.self, forKey: key)
                guard let value = Int(exactly: number) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                           debugDescription: "expected a whole number, got \(number)")
                }
                guard integer.range.contains(value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "\(value) is outside \(integer.range.lowerBound)...\(integer.range.upperBound)")
                }
                self[keyPath: integer.path] = value
            } else if key.stringValue == Self.referenceKey {
                guard let text = try? container.decode(String.self, forKey: key) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected \"none\" or \"average\"")
                }
                guard let value = ChannelReference(rawValue: text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                           debugDescription: "\"\(text)\" is neither \"none\" nor \"average\"")
                }
                reference = value
            } else if key.stringValue == Self.folderKey {
                if try container.decodeNil(forKey: key) {
                    calibrationFolder = nil
                } else {
                    let path = try container.decode(String.self, forKey: key)
                    guard !path.isEmpty else {
                        throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                               debugDescription: "an empty path (null saves no calibrations)")
                    }
                    calibrationFolder = URL(fileURLWithPath: path, isDirectory: true)
                }
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "unknown key (known: \(Self.fileKeys.joined(separator: ", ")))")
            }
        }
    }

    /// Writes every key of the file (`calibrationFolder` as a path or null;
    /// `lineFrequency` only when fixed); not `simulation`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        // A found mains is no setting: `lineFrequency` is written only when it is fixed.
        for number in Self.numbers() where number.key != "lineFrequency" || !findsLineFrequency {
            try container.encode(self[keyPath: number.path], forKey: Key(number.key))
        }
        for integer in Self.integers() { try container.encode(self[keyPath: integer.path], forKey: Key(integer.key)) }
        try container.encode(reference.rawValue, forKey: Key(Self.referenceKey))
        if let calibrationFolder {
            try container.encode(calibrationFolder.path, forKey: Key(Self.folderKey))
        } else {
            try container.encodeNil(forKey: Key(Self.folderKey))
        }
    }

    /// The settings in the JSON file at `url`, over the defaults. Throws
    /// ``DecoderServerSettingsError`` naming the file, and the key for a bad
    /// or unknown key.
    public init(contentsOf url: URL) throws(DecoderServerSettingsError) {
        let data: Data
        do { data = try JSONFile.contents(of: url) } catch { throw .fileUnreadable(path: url.path, reason: error.reason) }
        // Checked first: Foundation's reader takes some text that is not JSON (a trailing comma).
        if let problem = JSONProblem.syntax(in: data) { throw .badJSON(path: url.path, reason: "not a JSON object of settings: \(problem)") }
        do {
            self = try JSONDecoder().decode(DecoderServerSettings.self, from: data)
        } catch let error as DecodingError {
            throw DecoderServerSettingsError(path: url.path, error, data: data)
        } catch {
            throw .badJSON(path: url.path, reason: JSONProblem.notAnObject(of: "settings", error, in: data))
        }
        if let duplicate = JSONProblem.duplicateKey(in: data) { throw .badJSON(path: url.path, reason: duplicate) }
    }
}
