/// A terminal's size in character cells.
public struct TerminalSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Cells per row.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// Creates a size (negative values count as 0).
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// True when `other` fits inside this size.
    public func contains(_ other: TerminalSize) -> Bool { other.columns <= columns && other.rows <= rows }

    /// `COLUMNS×ROWS`.
    public var description: String { "\(columns)×\(rows)" }
}
