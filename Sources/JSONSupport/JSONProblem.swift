import Foundation

/// Why JSON did not decode, in words fit for an error line: the field and
/// what it should hold, never a Swift type name or a decoder's dump.
public enum JSONProblem {
    /// `error` in words. `data`, when given, tells "not JSON" from JSON
    /// whose value does not fit (Foundation on Linux reports a fraction
    /// where a whole number belongs as corrupt data with no field named).
    public static func describe(_ error: any Error, in data: Data? = nil) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, _):
            return "no \"\(key.stringValue)\" field"
        case .typeMismatch(let type, let context) where context.codingPath.isEmpty,
             .valueNotFound(let type, let context) where context.codingPath.isEmpty:
            return "not \(kind(type))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\"\(field(context.codingPath))\" must be \(kind(type))"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "\"\(field(context.codingPath))\": \(context.debugDescription)"
        case .dataCorrupted where data.map({ (try? JSONSerialization.jsonObject(with: $0, options: .fragmentsAllowed)) != nil }) == true:
            return "a value of the wrong kind (a fraction where a whole number belongs?)"
        case .dataCorrupted:
            return "not JSON"
        @unknown default:
            return "\(error)"
        }
    }

    /// "not a JSON object of `what`", and why when that adds something
    /// (the field, or that the text is not JSON at all).
    public static func notAnObject(of what: String, _ error: any Error, in data: Data? = nil) -> String {
        let why = describe(error, in: data)
        return "not a JSON object of \(what)" + (why.hasPrefix("not a JSON object") ? "" : ": \(why)")
    }

    /// What a value of `type` is, in words.
    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt8.Type, is UInt64.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        case is String.Type: return "a text"
        case is Bool.Type: return "true or false"
        case is [Any].Type, is [String].Type, is [Int].Type, is [Double].Type: return "a list"
        default: return "a JSON object"
        }
    }
}
