/// Why a trials dataset folder could not be read or written; the message
/// names the file and the reason.
///
/// ```swift
/// do { _ = try TrialsDataset.read(from: folder) }
/// catch let error as DatasetError { print(error) }   // "y.i32: missing"
/// ```
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is not in the folder.
    case missingFile(String)
    /// The file exists but cannot be read or parsed.
    case unreadable(file: String, reason: String)
    /// The file disagrees with the header or holds impossible values.
    case inconsistent(file: String, reason: String)

    /// The file the error is about.
    ///
    /// ```swift
    /// error.file   // "X.f32"
    /// ```
    public var file: String {
        switch self {
        case .missingFile(let f), .unreadable(let f, _), .inconsistent(let f, _): return f
        }
    }

    /// One line: the file, then the reason.
    ///
    /// ```swift
    /// "\(DatasetError.missingFile("V.u8"))"   // "V.u8: missing"
    /// ```
    public var description: String {
        switch self {
        case .missingFile(let f): return "\(f): missing"
        case .unreadable(let f, let reason), .inconsistent(let f, let reason): return "\(f): \(reason)"
        }
    }
}
