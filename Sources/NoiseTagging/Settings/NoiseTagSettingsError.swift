import UtopiaProtocol

/// Why a setting could not be changed, or a settings file not loaded.
/// Every case names the title (and the file and key for files).
public enum NoiseTagSettingsError: Error, Equatable, CustomStringConvertible {
    case unknownTitle(String)
    case wrongType(title: String, expected: String, got: String)
    case outOfRange(title: String, value: String, allowed: String)
    case badFormat(title: String, value: String, expected: String)
    case fileUnreadable(path: String, reason: String)
    case fileUnwritable(path: String, reason: String)
    case badJSON(path: String, reason: String)
    case badValueInFile(path: String, key: String, reason: String)

    /// A sentence naming the title, file and key, and the reason, on one
    /// line (control characters in a quoted title, key or value escaped).
    public var description: String { sentence.escapingControlCharacters }

    private var sentence: String {
        switch self {
        case .unknownTitle(let title):
            return "unknown setting title '\(title)'"
        case .wrongType(let title, let expected, let got):
            func withArticle(_ noun: String) -> String { ("aeiou".contains(noun.prefix(1)) ? "an " : "a ") + noun }
            return "\(title): expected \(withArticle(expected)), got \(withArticle(got))"
        case .outOfRange(let title, let value, let allowed):
            // NaN is outside no range: it is no number at all.
            return "\(title): \(value) " + (value.lowercased() == "nan" ? "is not a number (allowed: \(allowed))" : "is outside \(allowed)")
        case .badFormat(let title, let value, let expected):
            return "\(title): '\(value)' is not \(expected)"
        case .fileUnreadable(let path, let reason):
            return "settings file \(path): cannot read: \(reason)"
        case .fileUnwritable(let path, let reason):
            return "settings file \(path): cannot write: \(reason)"
        case .badJSON(let path, let reason):
            return "settings file \(path): not a JSON object of settings: \(reason)"
        case .badValueInFile(let path, let key, let reason):
            return "settings file \(path), key '\(key)': \(reason)"
        }
    }
}
