/// A setting's value: a bool, an integer, a number or a text.
/// In JSON it is the plain scalar.
public enum NoiseTagSettingValue: Equatable, Codable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case text(String)

    /// The value's type name, for error messages.
    public var typeName: String {
        switch self {
        case .bool: return "bool"
        case .int: return "integer"
        case .double: return "number"
        case .text: return "text"
        }
    }

    /// The value as written in JSON and events.
    public var description: String {
        switch self {
        case .bool(let v): return String(v)
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        case .text(let v): return v
        }
    }

    /// Decodes a JSON scalar.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let v = try? container.decode(Bool.self) {
            self = .bool(v)
        } else if let v = try? container.decode(Int.self) {
            self = .int(v)
        } else if let v = try? container.decode(Double.self) {
            self = .double(v)
        } else if let v = try? container.decode(String.self) {
            self = .text(v)
        } else {
            throw DecodingError.typeMismatch(
                NoiseTagSettingValue.self,
                .init(codingPath: decoder.codingPath,
                      debugDescription: "expected a bool, a number or a text"))
        }
    }

    /// Encodes the plain JSON scalar.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let v): try container.encode(v)
        case .int(let v): try container.encode(v)
        case .double(let v): try container.encode(v)
        case .text(let v): try container.encode(v)
        }
    }
}
