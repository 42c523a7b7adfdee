/// Why a trials dataset folder could not be read or written; the message
/// names the file and the reason.
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not in the folder.
    case missingFile(String)
    /// The file exists but cannot be read or parsed.
    case unreadable(file: String, reason: String)
    /// The file disagrees with the header or holds impossible values.
    case inconsistent(file: String, reason: String)

    /// The file the error is about.
    public var file: String {
        switch self {
        case .missingFile(let f), .unreadable(let f, _), .inconsistent(let f, _): return f
        }
    }

    /// One line: the file, then the reason.
    public var description: String {
        switch self {
        case .missingFile(let f): return "\(f): missing"
        case .unreadable(let f, let reason), .inconsistent(let f, let reason): return "\(f): \(reason)"
        }
    }
}
