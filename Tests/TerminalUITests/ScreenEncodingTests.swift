import Testing
@testable import TerminalUI

/// What reaches the terminal for known changes of the grid.
@Suite("Screen encoding")
struct ScreenEncodingTests {
    private let esc = "\u{1B}"
    private let red = TerminalRGB(red: 255, green: 0, blue: 0)

    private func encode(_ screen: TerminalScreen) -> (text: String, cells: Int) {
        var bytes: [UInt8] = []
        let cells = screen.encodeChanges(into: &bytes)
        return (String(decoding: bytes, as: UTF8.self), cells)
    }

    /// A screen whose first, full frame has gone out already: the next frame
    /// holds only what the test changes.
    private func shownScreen(columns: Int, rows: Int, colorMode: TerminalColorMode = .trueColor) -> TerminalScreen {
        let screen = TerminalScreen(size: TerminalSize(columns: columns, rows: rows), colorMode: colorMode)
        _ = encode(screen)
        return screen
    }

    /// Encodes `screen`'s changes and checks that exactly `text` goes out, writing `cells` cells.
    private func expectChanges(of screen: TerminalScreen, text: String, cells: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let frame = encode(screen)
        #expect(frame.text == text, sourceLocation: sourceLocation)
        #expect(frame.cells == cells, sourceLocation: sourceLocation)
    }

    @Test("The first frame clears the terminal and writes every cell")
    func firstFrameIsFull() {
        let screen = TerminalScreen(size: TerminalSize(columns: 3, rows: 1), colorMode: .trueColor)
        expectChanges(of: screen, text: "\(esc)[0m\(esc)[2J\(esc)[1;1H\(esc)[38;2;255;255;255;48;2;0;0;0m   ", cells: 3)
    }

    @Test("Only the changed cells are written, with the exact cursor and colour sequences")
    func onlyChangedCells() {
        let screen = shownScreen(columns: 4, rows: 2)
        screen.put("A", row: 0, column: 1, foreground: .white, background: red)
        screen.put("B", row: 1, column: 3, foreground: .white, background: red)
        // Text colour is still white from the first frame: only the background changes.
        expectChanges(of: screen, text: "\(esc)[1;2H\(esc)[48;2;255;0;0mA\(esc)[2;4HB", cells: 2)
    }

    @Test("A frame without changes writes nothing")
    func unchangedFrameIsEmpty() {
        let screen = shownScreen(columns: 4, rows: 2)
        screen.put(" ", row: 0, column: 0, foreground: .white, background: .black)   // what is shown already
        expectChanges(of: screen, text: "", cells: 0)
    }

    @Test("A gap on the same row moves the cursor forward; a run of one colour has one SGR")
    func cursorForwardAndColourRuns() {
        let screen = shownScreen(columns: 10, rows: 1)
        screen.fill(CellRect(row: 0, column: 0, width: 3, height: 1), with: red, foreground: .black)
        screen.put("X", row: 0, column: 6, foreground: .black, background: red)
        expectChanges(of: screen, text: "\(esc)[1;1H\(esc)[38;2;0;0;0;48;2;255;0;0m   \(esc)[3CX", cells: 4)
        #expect(screen.lastCharacterBytes == 4)
    }

    @Test("Scattered changes in two colours cost one SGR per colour, the terminal's current colours first")
    func changesGroupedByColour() {
        let blue = TerminalRGB(red: 0, green: 0, blue: 255)
        let screen = shownScreen(columns: 4, rows: 2)
        for (k, column) in [0, 1, 2, 3].enumerated() {
            screen.put("x", row: 0, column: column, foreground: .white, background: k % 2 == 0 ? red : blue)
            screen.put("y", row: 1, column: column, foreground: .white, background: k % 2 == 0 ? blue : red)
        }
        let first = encode(screen)
        #expect(first.cells == 8)
        #expect(first.text.components(separatedBy: "[48;2;").count - 1 == 2)
        // The terminal is left in the last group's colours; drawing in them again needs no SGR first.
        let lastRed = first.text.range(of: "48;2;255;0;0m")!.lowerBound > first.text.range(of: "48;2;0;0;255m")!.lowerBound
        screen.put("z", row: 1, column: 0, foreground: .white, background: lastRed ? red : blue)
        screen.put("z", row: 1, column: 1, foreground: .white, background: lastRed ? blue : red)
        let second = encode(screen)
        #expect(second.text.hasPrefix("\(esc)[2;1Hz"))   // the cell in the current colours, with no SGR before it
        #expect(second.text.components(separatedBy: "[48;2;").count - 1 == 1)
    }

    @Test("After a resize the whole screen is redrawn at the new size")
    func resizeRedrawsEverything() {
        let screen = shownScreen(columns: 4, rows: 2)
        screen.resize(to: TerminalSize(columns: 5, rows: 3))
        let frame = encode(screen)
        #expect(frame.text.hasPrefix("\(esc)[0m\(esc)[2J\(esc)[1;1H"))
        #expect(frame.cells == 15)
        #expect(frame.text.contains("\(esc)[3;1H"))
        #expect(encode(screen).cells == 0)
    }

    @Test("256-colour mode writes palette indices, and a change the palette cannot show costs nothing")
    func palette256() {
        let screen = shownScreen(columns: 2, rows: 1, colorMode: .palette256)
        screen.put("A", row: 0, column: 0, foreground: .white, background: red)
        let frame = encode(screen)
        #expect(frame.text == "\(esc)[1;1H\(esc)[48;5;196mA")
        screen.put("A", row: 0, column: 0, foreground: .white, background: TerminalRGB(red: 250, green: 3, blue: 3))
        #expect(encode(screen).cells == 0)
    }

    @Test("Text is clipped at the screen's edge and at its width limit")
    func textClipping() {
        let screen = TerminalScreen(size: TerminalSize(columns: 5, rows: 1), colorMode: .trueColor)
        #expect(screen.write("abcdefgh", row: 0, column: 2, foreground: .white, background: .black) == 3)
        #expect(screen.write("xyz", row: 0, column: 0, foreground: .white, background: .black, maxWidth: 1) == 1)
        let row = (0..<5).map { Character(screen[row: 0, column: $0].character) }
        #expect(String(row) == "x abc")
    }
}
