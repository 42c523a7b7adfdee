/// Why a `decoder-input.csv` could not be read: the file cannot be read, or
/// a row (named by its 1-based line number) is not a record.
public enum DecoderInputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// Line `line` (1-based) of the file is not a record.
    case badRow(path: String, line: Int, reason: String)

    /// `path:line: reason`, or `path: cannot read: reason`.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .badRow(let path, let line, let reason): return "\(path):\(line): \(reason)"
        }
    }
}
