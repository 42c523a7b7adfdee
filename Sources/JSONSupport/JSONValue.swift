import Foundation

/// A JSON value as read, kept whole so that a protocol's fields can be
/// checked one by one with errors that name them, and so that step
/// results (measures, answers) can be written back in one form.
public enum JSONValue: Sendable, Equatable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its keys in no particular order.
    case object([String: JSONValue])

    /// Reads one value (`true`/`false` are never numbers).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Writes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 { try container.encode(Int64(value)) }
            else if value.isFinite { try container.encode(value) }
            else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The JSON type's name, for errors ("a string", "a number", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The number, if this is one.
    public var number: Double? { if case .number(let v) = self { return v } else { return nil } }
    /// The string, if this is one.
    public var string: String? { if case .string(let v) = self { return v } else { return nil } }
    /// The object, if this is one.
    public var object: [String: JSONValue]? { if case .object(let v) = self { return v } else { return nil } }
    /// The array, if this is one.
    public var array: [JSONValue]? { if case .array(let v) = self { return v } else { return nil } }

    /// One compact line of JSON, keys sorted.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
