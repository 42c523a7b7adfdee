/// A grid of braille cells seen as dots, 2 across and 4 down per cell
/// (U+2800…U+28FF): twice the columns and four times the rows of text
/// resolution for a trace. Dots outside the grid are dropped.
///
/// ```swift
/// var canvas = BrailleCanvas(columns: 10, rows: 2)      // 20 × 8 dots
/// canvas.setDots(x: 3, from: 1, through: 6)
/// canvas.character(row: 0, column: 1)                  // "⢸"… or nil for an empty cell
/// ```
struct BrailleCanvas: Equatable, Sendable {
    /// Width in cells.
    let columns: Int
    /// Height in cells.
    let rows: Int
    /// One byte of dots per cell, row by row.
    private var cells: [UInt8]

    /// The bit of each dot in a cell, by [x][y] within the cell (Unicode's dot numbering 1–8).
    private static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// An empty canvas; negative sizes count as 0.
    init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = [UInt8](repeating: 0, count: self.columns * self.rows)
    }

    /// Dots across.
    var dotWidth: Int { 2 * columns }
    /// Dots down.
    var dotHeight: Int { 4 * rows }

    /// Sets the dots of column `x` from row `top` through `bottom` (either order), clipped to the canvas.
    mutating func setDots(x: Int, from top: Int, through bottom: Int) {
        guard x >= 0, x < dotWidth else { return }
        let low = max(0, min(top, bottom)), high = min(dotHeight - 1, max(top, bottom))
        guard low <= high else { return }
        for y in low...high { cells[(y / 4) * columns + x / 2] |= Self.dotBits[x % 2][y % 4] }
    }

    /// The braille character of a cell, nil when none of its dots is set (or it is outside the canvas).
    func character(row: Int, column: Int) -> Unicode.Scalar? {
        guard row >= 0, row < rows, column >= 0, column < columns else { return nil }
        let bits = cells[row * columns + column]
        return bits == 0 ? nil : Unicode.Scalar(0x2800 + UInt32(bits))
    }
}
