import Foundation

/// Reads a recording file line by line. A last line without its line break
/// (cut off by a crash) is not a line: it is counted, not returned.
public struct RecordingFileReader {
    /// The file's bytes (empty when it does not exist).
    public let data: Data
    /// True when the file exists.
    public let exists: Bool

    /// Reads `url` (memory-mapped when possible).
    public init(_ url: URL) {
        if let data = try? Data(contentsOf: url, options: .alwaysMapped) {
            self.data = data
            exists = true
        } else {
            data = Data()
            exists = false
        }
    }

    /// Calls `body` with every complete line (without its line break), in order.
    public func forEachLine(_ body: (Substring) -> Void) {
        forEachLineRange { range in body(Substring(decoding: data[range], as: UTF8.self)) }
    }

    /// Calls `body` with the range in ``data`` of every complete line
    /// (without its line break), in order; `data[range]` shares the bytes.
    public func forEachLineRange(_ body: (Range<Data.Index>) -> Void) {
        let all = data.span      // a bounds-checked view of the (mapped) bytes, no copy
        let base = data.startIndex
        var start = 0
        for index in all.indices where all[index] == 0x0A {
            body((base + start)..<(base + index))
            start = index + 1
        }
    }

    /// The cells of every complete line, the header row first, each line
    /// parsed as CSV (RFC 4180 quoting) by `CSVRow.cells(of:)` (one that does not parse:
    /// one cell, its text); a line cut off by a crash is left out. Empty when
    /// the file is missing.
    public func csvRows() -> [[String]] {
        guard let end = data.lastIndex(of: 0x0A) else { return [] }
        // Line by line (every record the recorder writes is one line, CSVRow): a row of the wrong
        // width stays that one row, where SwiftCSV read as one table would misread the rows around it.
        return data[data.startIndex..<end].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            CSVRow.cells(of: Substring(decoding: line, as: UTF8.self))
        }
    }

    /// Number of complete lines.
    public var lineCount: Int {
        let all = data.span
        var count = 0
        for index in all.indices where all[index] == 0x0A { count += 1 }
        return count
    }

    /// The last complete line, if any.
    public var lastLine: Substring? {
        guard let end = data.lastIndex(of: 0x0A) else { return nil }
        let start = data[data.startIndex..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        return Substring(decoding: data[start..<end], as: UTF8.self)
    }

    /// True when the file ends in the middle of a line (cut off by a crash).
    public var endsWithPartialLine: Bool { data.last.map { $0 != 0x0A } ?? false }
}
