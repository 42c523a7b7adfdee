import SwiftCSV

/// One CSV record on one line (RFC 4180 quoting; line breaks inside a cell
/// become spaces, so every record is exactly one line).
public enum CSVRow {
    /// The cells joined into one line, without the line break.
    public static func line(_ cells: [String]) -> String {
        cells.map(escaped).joined(separator: ",")
    }

    /// One cell, quoted when it holds a comma, a quote or a line break.
    public static func escaped(_ cell: String) -> String {
        var text = cell
        if text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            text = String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Splits one line into its cells, undoing the quoting (parsed by
    /// SwiftCSV, the reader ``RecordingFileReader/csvRows()`` uses).
    public static func cells(of line: Substring) -> [String] {
        // The line break keeps an empty last cell, which SwiftCSV drops at the end of its input.
        (try? EnumeratedCSV(string: line + "\n", delimiter: .comma, loadColumns: false))?.header ?? [String(line)]
    }

    /// Splits one line into its cells.
    public static func cells(of line: String) -> [String] { cells(of: Substring(line)) }
}
