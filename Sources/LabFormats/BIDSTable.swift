import Foundation

/// A BIDS tab-separated table (`*_events.tsv`, `*_channels.tsv`): a header
/// row of column names, then one row per entry; "n/a" (or an empty cell)
/// means no value.
struct BIDSTable {
    /// Column names, lower-cased and trimmed.
    var columns: [String]
    /// The rows, each with its 1-based line number in the file.
    var rows: [(line: Int, cells: [String])]

    /// The table in the file at `url`; errors name the file.
    init(_ url: URL) throws {
        let lines = HeaderText.lines(try HeaderText.read(url))
        guard let first = lines.first, !HeaderText.trimmed(first).isEmpty else {
            throw LabFormatError(url.lastPathComponent, "is empty (expected a header row of column names)")
        }
        columns = first.split(separator: "\t", omittingEmptySubsequences: false).map { HeaderText.trimmed($0).lowercased() }
        rows = lines.enumerated().dropFirst().compactMap { index, line in
            guard !HeaderText.trimmed(line).isEmpty else { return nil }
            return (index + 1, line.split(separator: "\t", omittingEmptySubsequences: false).map { HeaderText.trimmed($0) })
        }
    }

    /// The index of the column `name`, nil when the table has none.
    func column(_ name: String) -> Int? { columns.firstIndex(of: name) }

    /// The cell of `row` in column `index`, nil when absent, empty or "n/a".
    func cell(_ row: [String], _ index: Int?) -> String? {
        guard let index, index < row.count else { return nil }
        let value = row[index]
        return value.isEmpty || value.lowercased() == "n/a" ? nil : value
    }
}
