/// The type and allowed values of a setting.
public enum NoiseTagSettingKind: Equatable, Sendable {
    case bool
    case int(ClosedRange<Int>)
    case double(ClosedRange<Double>)
    case text
    /// A text from a fixed list.
    case choice([String])
    /// A `#RRGGBB` colour text.
    case color

    /// Checks `value` against the kind; returns the value normalised
    /// (an integer given for a number becomes a number) or the reason it is refused.
    func validate(_ value: NoiseTagSettingValue) -> Result<NoiseTagSettingValue, Refusal> {
        switch (self, value) {
        case (.bool, .bool): return .success(value)
        case (.int(let range), .int(let v)):
            return range.contains(v) ? .success(value) : .failure(.range("\(range.lowerBound)...\(range.upperBound)"))
        case (.double(let range), .double(let v)):
            return v.isFinite && range.contains(v) ? .success(value) : .failure(.range("\(range.lowerBound)...\(range.upperBound)"))
        case (.double, .int(let v)):
            return validate(.double(Double(v)))
        case (.text, .text): return .success(value)
        case (.choice(let options), .text(let v)):
            return options.contains(v) ? .success(value) : .failure(.format("one of " + options.joined(separator: ", ")))
        case (.color, .text(let v)):
            return NoiseTagColor(hex: v) != nil ? .success(.text(v.uppercased())) : .failure(.format("a #RRGGBB colour"))
        default:
            return .failure(.type(typeName))
        }
    }

    /// The kind in words, with its range or choices: "true or false",
    /// "whole number 1...60", "number 0...1", "one of Min, Max", "colour
    /// #RRGGBB" (the Settings article and the developer panel show it; plain
    /// ASCII, which a terminal shows one character a cell).
    public var words: String {
        func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x) }
        switch self {
        case .bool: return "true or false"
        case .int(let range): return "whole number \(range.lowerBound)...\(range.upperBound)"
        case .double(let range): return "number \(number(range.lowerBound))...\(number(range.upperBound))"
        case .text: return "text"
        case .choice(let options): return "one of " + options.joined(separator: ", ")
        case .color: return "colour #RRGGBB"
        }
    }

    /// The value type this kind takes, for error messages.
    var typeName: String {
        switch self {
        case .bool: return "bool"
        case .int: return "integer"
        case .double: return "number"
        case .text, .choice: return "text"
        case .color: return "colour text #RRGGBB"
        }
    }

    /// Why a value does not fit a kind.
    enum Refusal: Error {
        case type(String)
        case range(String)
        case format(String)
    }
}
