/// Why a codebook could not be made, read or written.
///
/// Errors from a file name the file and, where the problem sits on a line, the
/// 1-based line and column (in characters) of the offending cell. The
/// description reads like a compiler diagnostic: `file:line:column: reason`.
public struct CodebookError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Hashable, Sendable {
        /// No file at the path.
        case fileNotFound
        /// The file exists but could not be read (the system's explanation).
        case unreadableFile(String)
        /// The file could not be written (the system's explanation).
        case unwritableFile(String)
        /// The file is not UTF-8 text.
        case notText
        /// The file has no stimulus-time row (nothing but comments and blank lines).
        case emptyFile
        /// A cell is not a decimal number, or one too large for a `Double`.
        case nonNumericCell(String)
        /// A stimulus time is smaller than the one before it (often: the time row is missing).
        case decreasingStimulusTime(previous: Double, found: Double)
        /// A state is a number but not a whole number from 0 to 255.
        case invalidState(String)
        /// A code row does not have one state per stimulus time.
        case raggedRow(expected: Int, found: Int)
        /// No code follows the stimulus-time row (or the book is empty).
        case noCodes
        /// The code at `index` has no states.
        case emptyCode(index: Int)
        /// The code at `index` has a different length from the first code.
        case raggedCode(index: Int, expected: Int, found: Int)
        /// The stimulus times do not match the code length.
        case stimulusTimeCount(expected: Int, found: Int)
    }

    /// What went wrong.
    public var reason: Reason
    /// The file involved, as given by the caller, if any.
    public var file: String?
    /// The 1-based line of the problem, if it sits on one.
    public var line: Int?
    /// The 1-based column (in characters) of the problem, if it sits on a line.
    public var column: Int?

    /// Makes an error.
    public init(_ reason: Reason, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: reason`, leaving out the parts that are unknown.
    public var description: String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }
        return place.isEmpty ? explanation : place.joined(separator: ":") + ": " + explanation
    }

    /// A cell as the message quotes it: control characters escaped, and at
    /// most its first 40 characters (a binary file read as text is one
    /// cell of thousands).
    static func quoted(_ cell: String) -> String {
        cell.count <= 40 ? cell.debugDescription : String(cell.prefix(40)).debugDescription + " (\(cell.count) characters)"
    }

    private var explanation: String {
        switch reason {
        case .fileNotFound: return "no such file"
        case .unreadableFile(let why): return "cannot read the file (\(why))"
        case .unwritableFile(let why): return "cannot write the file (\(why))"
        case .notText: return "not a UTF-8 text file"
        case .emptyFile: return "empty codebook: no stimulus-time row, only comments or blank lines"
        // A cell is quoted with its control characters escaped (String's own debugDescription), so
        // a damaged file's escape sequence cannot reach the terminal or break the line.
        case .nonNumericCell(let cell) where Double(cell)?.isInfinite == true && !cell.lowercased().contains("inf"):
            return "cell \(Self.quoted(cell)) is a number too large to hold (expected a number such as 0 or 1)"
        case .nonNumericCell(let cell): return "non-numeric cell \(Self.quoted(cell)) (expected a number such as 0 or 1)"
        case .decreasingStimulusTime(let previous, let found):
            return "stimulus time \(Self.format(found)) is smaller than the previous one (\(Self.format(previous))); is the stimulus-time row missing?"
        case .invalidState(let cell): return "invalid state \(Self.quoted(cell)) (expected a whole number from 0 to 255)"
        case .raggedRow(let expected, let found):
            return "ragged row: \(found) states but the stimulus-time row has \(expected)"
        case .noCodes: return "no codes: nothing follows the stimulus-time row"
        case .emptyCode(let index): return "code \(index) is empty"
        case .raggedCode(let index, let expected, let found):
            return "code \(index) has \(found) states but code 0 has \(expected)"
        case .stimulusTimeCount(let expected, let found):
            return "\(found) stimulus times given for codes of length \(expected)"
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
