/// A rectangle of cells: top-left row and column, width and height.
///
/// ```swift
/// let block = CellRect(row: 2, column: 4, width: 8, height: 3)
/// block.center   // (row: 3, column: 8)
/// ```
public struct CellRect: Equatable, Hashable, Sendable {
    /// Top row, 0-based.
    public var row: Int
    /// Left column, 0-based.
    public var column: Int
    /// Columns covered.
    public var width: Int
    /// Rows covered.
    public var height: Int

    /// Creates a rectangle.
    ///
    /// ```swift
    /// let area = CellRect(row: 0, column: 0, width: 80, height: 24)
    /// ```
    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The middle cell (rounded towards the top-left).
    ///
    /// ```swift
    /// CellRect(row: 0, column: 0, width: 8, height: 3).center   // (row: 1, column: 3)
    /// ```
    public var center: (row: Int, column: Int) { (row + (height - 1) / 2, column + (width - 1) / 2) }
}
