/// A rectangle of cells: top-left row and column, width and height.
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
    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The middle cell (rounded towards the top-left).
    public var center: (row: Int, column: Int) { (row + (height - 1) / 2, column + (width - 1) / 2) }
}
