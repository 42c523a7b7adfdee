import Foundation
import JSONSupport
import UtopiaProtocol

/// Why a decoder settings file could not be loaded
/// (``DecoderServerSettings/init(contentsOf:)``): every case names the
/// file, and the key when one key is at fault.
public enum DecoderServerSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// The file is not a JSON object.
    case badJSON(path: String, reason: String)
    /// One key is unknown, of the wrong type or out of range.
    case badValue(path: String, key: String, reason: String)

    /// A sentence naming the file (and key) and the reason, on one line
    /// (control characters in a quoted key escaped).
    public var description: String { sentence.escapingControlCharacters }

    private var sentence: String {
        switch self {
        case .fileUnreadable(let path, let reason): return "decoder settings file \(path): cannot read: \(reason)"
        case .badJSON(let path, let reason): return "decoder settings file \(path): \(reason)"
        case .badValue(let path, let key, let reason): return "decoder settings file \(path), key '\(key)': \(reason)"
        }
    }

    /// The error for `error`, met decoding the file at `path`.
    init(path: String, _ error: DecodingError, data: Data? = nil) {
        switch error {
        case .typeMismatch(_, let context) where context.codingPath.isEmpty, .dataCorrupted(let context) where context.codingPath.isEmpty:
            self = .badJSON(path: path, reason: JSONProblem.notAnObject(of: "settings", error, in: data))
        case .typeMismatch(let type, let context):
            let expected = type == String.self ? "a text (a path) or null" : type == Double.self ? "a number" : "\(type)"
            self = Self.at(path, context, reason: "expected \(expected)")
        case .valueNotFound(_, let context):
            self = Self.at(path, context, reason: "expected a value, got null")
        case .keyNotFound(let key, let context):
            self = Self.at(path, context, reason: "key '\(key.stringValue)' missing")
        case .dataCorrupted(let context):
            self = Self.at(path, context, reason: context.debugDescription)
        @unknown default:
            self = .badJSON(path: path, reason: JSONProblem.notAnObject(of: "settings", error, in: data))
        }
    }

    private static func at(_ path: String, _ context: DecodingError.Context, reason: String) -> Self {
        guard let key = context.codingPath.last?.stringValue else { return .badJSON(path: path, reason: "not a JSON object of settings: \(reason)") }
        return .badValue(path: path, key: key, reason: reason)
    }
}
