/// A terminal's size in character cells.
///
/// ```swift
/// let size = TerminalSize(columns: 80, rows: 24)
/// size.contains(TerminalSize(columns: 60, rows: 20))   // true
/// ```
public struct TerminalSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Cells per row.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// Creates a size (negative values count as 0).
    ///
    /// ```swift
    /// let size = TerminalSize(columns: 100, rows: 30)
    /// ```
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// True when `other` fits inside this size.
    ///
    /// ```swift
    /// TerminalSize(columns: 80, rows: 24).contains(TerminalSize(columns: 81, rows: 2))   // false
    /// ```
    public func contains(_ other: TerminalSize) -> Bool { other.columns <= columns && other.rows <= rows }

    /// `COLUMNS×ROWS`.
    public var description: String { "\(columns)×\(rows)" }
}
