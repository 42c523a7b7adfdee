import UtopiaProtocol

/// A recording that cannot be replayed: the file and line that could not be
/// read (line 0 for the file as a whole) and why.
public struct RecordingReadError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file inside the recording, or the folder itself.
    public var file: String
    /// The 1-based line, 0 when the whole file is meant.
    public var line: Int
    /// What is wrong, in a sentence.
    public var reason: String

    /// Creates the error.
    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`, or `file: reason` for a whole file, on one line
    /// even when the reason quotes bytes of a damaged file (control
    /// characters escaped).
    public var description: String {
        (line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)").escapingControlCharacters
    }
}
