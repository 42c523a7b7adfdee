/// A grid of cells drawn each frame, and the bytes that bring the terminal
/// up to date.
///
/// Drawing goes into a back buffer; ``encodeChanges(into:)`` appends the
/// escape sequences for the cells that differ from what the terminal
/// already shows (the front buffer) — grouped by colours so that each
/// colour pair costs one SGR per frame, with a cursor move per run of
/// changed cells — and then takes the back buffer as shown. After
/// ``resize(to:)`` (and before the first frame) every cell is written,
/// after a screen clear. In ``TerminalColorMode/palette256`` colours are
/// snapped to the palette as they are drawn, so a change the palette
/// cannot show costs no bytes.
///
/// The screen belongs to the thread that draws (the frame loop's).
///
/// ```swift
/// let screen = TerminalScreen(size: TerminalSize(columns: 80, rows: 24), colorMode: .trueColor)
/// screen.fill(CellRect(row: 2, column: 2, width: 8, height: 3), with: .white)
/// screen.write("Yes", row: 3, column: 4, foreground: .black, background: .white)
/// var bytes: [UInt8] = []
/// screen.encodeChanges(into: &bytes)      // then one write(2) of `bytes`
/// ```
public final class TerminalScreen {
    /// The grid's size.
    public private(set) var size: TerminalSize
    /// How colours are written.
    public let colorMode: TerminalColorMode
    private var back: [TerminalCell]
    private var front: [TerminalCell]
    /// False until the terminal has been cleared and fully drawn at this size.
    private var frontIsValid = false
    /// The colours the terminal is set to draw in, nil when unknown.
    private var currentForeground: TerminalRGB?
    private var currentBackground: TerminalRGB?

    /// Cells written by the latest ``encodeChanges(into:)``.
    public private(set) var lastChangedCells = 0
    /// UTF-8 bytes of the characters of those cells alone: the floor under
    /// any encoding of the frame's changes (cursor moves and colours come on top).
    public private(set) var lastCharacterBytes = 0

    /// Creates a blank screen; its first encoding clears the terminal and writes every cell.
    public init(size: TerminalSize, colorMode: TerminalColorMode) {
        self.size = size
        self.colorMode = colorMode
        back = Array(repeating: .blank, count: size.columns * size.rows)
        front = back
    }

    /// Changes the size: the grid becomes blank and the next encoding is a
    /// full redraw (clear, then every cell).
    public func resize(to newSize: TerminalSize) {
        size = newSize
        back = Array(repeating: .blank, count: newSize.columns * newSize.rows)
        front = back
        invalidate()
    }

    /// Forgets what the terminal shows: the next encoding is a full redraw.
    public func invalidate() {
        frontIsValid = false
        currentForeground = nil
        currentBackground = nil
    }

    /// The cell at `row`, `column` of the frame being drawn.
    public subscript(row row: Int, column column: Int) -> TerminalCell {
        back[row * size.columns + column]
    }

    /// Sets every cell to `cell`.
    public func clear(to cell: TerminalCell = .blank) {
        let shown = TerminalCell(character: cell.character, foreground: colorMode.shown(cell.foreground),
                                 background: colorMode.shown(cell.background))
        for index in back.indices { back[index] = shown }
    }

    /// Puts one character at `row`, `column`; outside the grid it is dropped.
    @inline(__always)
    public func put(_ character: Unicode.Scalar, row: Int, column: Int, foreground: TerminalRGB, background: TerminalRGB) {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns else { return }
        back[row * size.columns + column] = TerminalCell(character: character, foreground: colorMode.shown(foreground),
                                                         background: colorMode.shown(background))
    }

    /// Fills `rect` (clipped to the grid) with spaces in `background`;
    /// `foreground` is the text colour left in the cells (default: the
    /// contrasting one, so a label drawn later shares their colour run).
    public func fill(_ rect: CellRect, with background: TerminalRGB, foreground: TerminalRGB? = nil) {
        let top = max(rect.row, 0), bottom = min(rect.row + rect.height, size.rows)
        let left = max(rect.column, 0), right = min(rect.column + rect.width, size.columns)
        guard top < bottom, left < right else { return }
        let bg = colorMode.shown(background)
        let cell = TerminalCell(character: " ", foreground: colorMode.shown(foreground ?? background.contrastingText),
                                background: bg)
        for row in top..<bottom {
            let base = row * size.columns
            for column in left..<right { back[base + column] = cell }
        }
    }

    /// Writes `text` from `row`, `column` rightwards, at most `maxWidth`
    /// cells (and never past the grid's edge); returns the cells used.
    /// Each Unicode scalar takes one cell.
    @discardableResult
    public func write<S: StringProtocol>(_ text: S, row: Int, column: Int, foreground: TerminalRGB,
                                         background: TerminalRGB, maxWidth: Int = .max) -> Int {
        guard row >= 0, row < size.rows else { return 0 }
        let limit = maxWidth >= size.columns ? size.columns : min(size.columns, column + max(0, maxWidth))
        var x = column
        for scalar in text.unicodeScalars {
            guard x < limit else { break }
            put(scalar, row: row, column: x, foreground: foreground, background: background)
            x += 1
        }
        return max(0, x - column)
    }

    /// A horizontal run of changed cells with the same colours.
    private struct Run {
        /// Index of the first cell.
        var start: Int
        var length: Int
        /// The colours packed (foreground, background), for grouping; 0 for the colours the terminal is set to.
        var key: UInt64
    }

    /// SGR reset and erase the display: the start of a full redraw.
    private static let resetAndClear = Array("\u{1B}[0m\u{1B}[2J".utf8)

    /// The runs of the frame being encoded (kept to reuse their storage).
    private var runs: [Run] = []

    /// Appends to `bytes` what turns the terminal's picture into the drawn
    /// one, and takes the drawn frame as shown. Returns the number of cells
    /// written (0 and no bytes when nothing changed).
    ///
    /// Changed cells are gathered into runs of one colour pair on a row;
    /// the runs are written grouped by colours (those the terminal is set
    /// to first), so each colour pair costs one SGR per frame however its
    /// cells are scattered, and each run one cursor move.
    @discardableResult
    public func encodeChanges(into bytes: inout [UInt8]) -> Int {
        let full = !frontIsValid
        if full {
            bytes.append(contentsOf: Self.resetAndClear)
            currentForeground = nil
            currentBackground = nil
        }
        let columns = size.columns
        let currentKey = currentForeground.flatMap { fg in currentBackground.map { Self.key(fg, $0) } }
        var changed = 0, characterBytes = 0
        runs.removeAll(keepingCapacity: true)
        for index in back.indices {
            let cell = back[index]
            if !full && cell == front[index] { continue }
            front[index] = cell
            changed += 1
            characterBytes += UTF8.width(cell.character)
            var key = Self.key(cell.foreground, cell.background)
            if key == currentKey { key = 0 }
            if let last = runs.last, last.start + last.length == index, index % columns != 0, last.key == key {
                runs[runs.count - 1].length += 1
            } else {
                runs.append(Run(start: index, length: 1, key: key))
            }
        }
        runs.sort { $0.key != $1.key ? $0.key < $1.key : $0.start < $1.start }
        var cursorRow = -1, cursorColumn = -1
        for run in runs {
            let row = run.start / columns, column = run.start % columns
            if row == cursorRow && column > cursorColumn {
                bytes.appendCursorForward(column - cursorColumn)
            } else if row != cursorRow || column != cursorColumn {
                bytes.appendCursorPosition(row: row, column: column)
            }
            let first = back[run.start]
            let newForeground = first.foreground != currentForeground
            let newBackground = first.background != currentBackground
            if newForeground || newBackground {
                bytes.appendCSI()
                if newForeground { bytes.appendColorParameters(first.foreground, background: false, mode: colorMode) }
                if newForeground && newBackground { bytes.append(0x3B) }
                if newBackground { bytes.appendColorParameters(first.background, background: true, mode: colorMode) }
                bytes.append(0x6D)
                currentForeground = first.foreground
                currentBackground = first.background
            }
            for index in run.start..<(run.start + run.length) { bytes.appendUTF8(back[index].character) }
            cursorRow = row
            cursorColumn = column + run.length
            // After the last column the cursor waits to wrap: position it explicitly next time.
            if cursorColumn == columns { cursorRow = -1 }
        }
        frontIsValid = true
        lastChangedCells = changed
        lastCharacterBytes = characterBytes
        return changed
    }

    /// Both colours in one number (never 0: bit 48 is set), to group runs by colour.
    @inline(__always)
    private static func key(_ foreground: TerminalRGB, _ background: TerminalRGB) -> UInt64 {
        1 << 48 | UInt64(foreground.red) << 40 | UInt64(foreground.green) << 32 | UInt64(foreground.blue) << 24
            | UInt64(background.red) << 16 | UInt64(background.green) << 8 | UInt64(background.blue)
    }
}
