/// Writes a header-style line left to right: the row filled in the header
/// colours, then pieces of text, each in its own colour, with `│`
/// separators between sections. The header, the signal check and the
/// developer panel draw their first row with it.
///
/// ```swift
/// var line = TerminalHeaderLine(screen: screen, row: 0)
/// line.text("Signal check")
/// line.separator()
/// line.text("missed 2", TerminalHeader.below)
/// ```
public struct TerminalHeaderLine {
    private let screen: TerminalScreen
    private let row: Int
    /// The next column written.
    public private(set) var column = 1

    /// Fills `row` with the header background and starts at column 1.
    public init(screen: TerminalScreen, row: Int) {
        self.screen = screen
        self.row = row
        screen.fill(CellRect(row: row, column: 0, width: screen.size.columns, height: 1),
                    with: TerminalHeader.background, foreground: TerminalHeader.foreground)
    }

    /// Writes `text` in `color` (clipped at the screen's edge).
    public mutating func text(_ text: String, _ color: TerminalRGB = TerminalHeader.foreground) {
        column += screen.write(text, row: row, column: column, foreground: color, background: TerminalHeader.background)
    }

    /// Writes the section separator ` │ `.
    public mutating func separator() { text(" │ ", TerminalHeader.dim) }

    /// Puts one character at the current column in `color` and moves on.
    public mutating func put(_ character: Unicode.Scalar, _ color: TerminalRGB) {
        screen.put(character, row: row, column: column, foreground: color, background: TerminalHeader.background)
        column += 1
    }
}
