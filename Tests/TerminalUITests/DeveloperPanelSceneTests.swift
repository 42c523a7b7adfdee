import NoiseTagging
import Testing
@testable import TerminalUI

/// The developer panel driven key byte by key byte, as the runner does,
/// and read back from the screen's cells.
@Suite("Developer panel")
struct DeveloperPanelSceneTests {
    static let enter: UInt8 = 0x0D
    static let escape: UInt8 = 0x1B
    static let arrowDown: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "B")]
    static let arrowUp: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "A")]
    static let titles = NoiseTagSettingTitles.allCases

    static func screen(_ columns: Int = 100, _ rows: Int = 30) -> TerminalScreen {
        TerminalScreen(size: TerminalSize(columns: columns, rows: rows), colorMode: .trueColor)
    }

    static func text(_ screen: TerminalScreen, row: Int) -> String {
        String(String.UnicodeScalarView((0..<screen.size.columns).map { screen[row: row, column: $0].character }))
    }

    static func lines(_ screen: TerminalScreen) -> [String] {
        (0..<screen.size.rows).map { text(screen, row: $0) }
    }

    /// The row whose title column holds exactly `title` (not a longer title starting with it).
    static func row(of title: NoiseTagSettingTitles, in screen: TerminalScreen) -> Int? {
        lines(screen).firstIndex { line in
            let cells = Array(line.unicodeScalars)
            guard cells.count > 3 else { return false }
            let name = String(String.UnicodeScalarView(cells[3...].prefix { $0 != " " }))
            return name == title.rawValue
        }
    }

    static func press(_ bytes: [UInt8], _ panel: DeveloperPanelScene) {
        for byte in bytes { panel.handle(key: byte) }
    }

    static func type(_ text: String, _ panel: DeveloperPanelScene) {
        press(Array(text.utf8), panel)
    }

    /// Moves the selection to `title` with `j` or `k` and opens the editor with Enter.
    static func open(_ title: NoiseTagSettingTitles, _ panel: DeveloperPanelScene) {
        let steps = titles.firstIndex(of: title)! - panel.selectedIndex
        press([UInt8](repeating: UInt8(ascii: steps > 0 ? "j" : "k"), count: abs(steps)), panel)
        panel.handle(key: enter)
    }

    /// The message line: the row above the footer.
    static func messageLine(_ screen: TerminalScreen) -> String {
        text(screen, row: screen.size.rows - 2)
    }

    /// The colour of the first non-space cell of `row`.
    static func firstTextColor(_ screen: TerminalScreen, row: Int) -> TerminalRGB? {
        (0..<screen.size.columns).map { screen[row: row, column: $0] }.first { $0.character != " " }?.foreground
    }

    @Test("At 100×30 every title that fits is listed with its value, and the header counts settings and changes")
    func listsSettings() throws {
        let settings = NoiseTagSettings()
        let panel = DeveloperPanelScene(settings: settings)
        let screen = Self.screen()
        panel.draw(on: screen, missedFrames: 0)
        let rows = panel.listRect(in: screen.size).height
        #expect(rows == 26)
        #expect(Self.titles.count > rows, "the list must scroll at this size for the scrolling tests to mean anything")
        #expect(Self.text(screen, row: 0).contains("Developer panel — \(Self.titles.count) settings, 0 changed"))
        for title in Self.titles.prefix(rows) {
            let row = try #require(Self.row(of: title, in: screen), "\(title) is not listed")
            #expect(Self.text(screen, row: row).contains(" " + settings.value(for: title).description))
        }
        for title in Self.titles.dropFirst(rows) { #expect(Self.row(of: title, in: screen) == nil) }
        // Nothing changed yet: no row is marked.
        #expect(!Self.lines(screen)[1...rows].contains { $0.hasPrefix(" *") })

        try settings.set(value: 2, for: .framesPerBit)
        panel.draw(on: screen, missedFrames: 0)
        #expect(Self.text(screen, row: 0).contains("1 changed"))
        let row = try #require(Self.row(of: .framesPerBit, in: screen))
        let line = Self.text(screen, row: row)
        #expect(line.hasPrefix(" * framesPerBit"))
        #expect(line.contains(" 2  (default 1)"))
        #expect(Self.lines(screen).filter { $0.hasPrefix(" *") }.count == 1)
    }

    @Test("The arrow keys and j/k move the highlighted selection; the list scrolls to the last title and back")
    func scrolls() throws {
        let panel = DeveloperPanelScene(settings: NoiseTagSettings())
        let screen = Self.screen()
        panel.draw(on: screen, missedFrames: 0)
        #expect(screen[row: 1, column: 5].background == DeveloperPanelScene.selection)
        #expect(screen[row: 2, column: 5].background == DeveloperPanelScene.background)

        for _ in 0..<(Self.titles.count + 5) { Self.press(Self.arrowDown, panel) }
        panel.draw(on: screen, missedFrames: 0)
        let last = try #require(Self.titles.last)
        #expect(panel.selectedTitle == last)
        let lastRow = try #require(Self.row(of: last, in: screen), "the last title is not shown")
        #expect(lastRow == panel.listRect(in: screen.size).row + panel.listRect(in: screen.size).height - 1)
        #expect(screen[row: lastRow, column: 5].background == DeveloperPanelScene.selection)
        #expect(Self.row(of: Self.titles[0], in: screen) == nil)
        // The arrow bytes never reach the description line or onKey as letters.
        #expect(Self.text(screen, row: screen.size.rows - 3).contains(last.rawValue + ":"))

        Self.press([UInt8(ascii: "k")], panel)
        Self.press(Self.arrowUp, panel)
        #expect(panel.selectedIndex == Self.titles.count - 3)
        for _ in 0..<Self.titles.count { Self.press([UInt8(ascii: "k")], panel) }
        panel.draw(on: screen, missedFrames: 0)
        #expect(panel.selectedIndex == 0)
        #expect(Self.row(of: Self.titles[0], in: screen) == 1)
        Self.press([UInt8(ascii: "j")], panel)
        #expect(panel.selectedTitle == Self.titles[1])
    }

    @Test("Typing 0.9 for certaintyRequiredForPress sets it in the settings and says so in green")
    func editsThreshold() throws {
        let settings = NoiseTagSettings()
        try settings.set(value: 0.5, for: .certaintyRequiredForPress)
        let panel = DeveloperPanelScene(settings: settings)
        let screen = Self.screen()
        Self.open(.certaintyRequiredForPress, panel)
        #expect(panel.editorText == "")
        Self.type("0.95", panel)
        panel.handle(key: 0x7F)              // Backspace: "0.9"
        panel.draw(on: screen, missedFrames: 0)
        #expect(Self.messageLine(screen).hasPrefix(" certaintyRequiredForPress = 0.9█"))
        #expect(settings.doubleFor(.certaintyRequiredForPress) == 0.5, "nothing changes before Enter")

        panel.handle(key: Self.enter)
        #expect(settings.value(for: .certaintyRequiredForPress) == .double(0.9))
        #expect(panel.editorText == nil)
        panel.draw(on: screen, missedFrames: 0)
        #expect(Self.messageLine(screen).contains("certaintyRequiredForPress = 0.9"))
        #expect(Self.firstTextColor(screen, row: screen.size.rows - 2) == DeveloperPanelScene.applied)
        let row = try #require(Self.row(of: .certaintyRequiredForPress, in: screen))
        #expect(Self.text(screen, row: row).contains(" 0.9"))

        Self.press([Self.enter] + Array("0.95".utf8) + [Self.enter], panel)
        #expect(settings.doubleFor(.certaintyRequiredForPress) == 0.95)
        #expect(panel.message == DeveloperPanelMessage(text: "certaintyRequiredForPress = 0.95", kind: .applied))
    }

    @Test("Input that is not a number, or out of range, shows a red message naming the setting and leaves the value",
          arguments: [("abc", "expected a number"), ("7", "outside 0.0...1.0"), ("", "expected a number")])
    func refusesBadInput(typed: String, reason: String) throws {
        let settings = NoiseTagSettings()
        try settings.set(value: 0.8, for: .certaintyRequiredForPress)
        let panel = DeveloperPanelScene(settings: settings)
        let screen = Self.screen()
        Self.open(.certaintyRequiredForPress, panel)
        Self.type(typed, panel)
        panel.handle(key: Self.enter)
        panel.draw(on: screen, missedFrames: 0)
        #expect(settings.value(for: .certaintyRequiredForPress) == .double(0.8))
        let line = Self.messageLine(screen)
        #expect(line.contains("certaintyRequiredForPress:"))
        #expect(line.contains(reason))
        #expect(line.contains("; kept 0.8"))
        #expect(Self.firstTextColor(screen, row: screen.size.rows - 2) == DeveloperPanelScene.refused)
        #expect(panel.message?.kind == .refused)
    }

    @Test("framesPerBit takes integers only, within 1...60; clickFeedbackMode takes a choice typed in any case or stepped with Tab")
    func editsOtherKinds() throws {
        let settings = NoiseTagSettings()
        let panel = DeveloperPanelScene(settings: settings)
        Self.open(.framesPerBit, panel)
        Self.type("2.5\r", panel)
        #expect(panel.message?.text.contains("framesPerBit: expected an integer, got a number") == true)
        Self.type("\r0\r", panel)
        #expect(panel.message?.text.contains("framesPerBit: 0 is outside 1...60") == true)
        Self.type("\r 3 \r", panel)
        #expect(settings.value(for: .framesPerBit) == .int(3))

        Self.open(.clickFeedbackMode, panel)
        Self.type("blinking\r", panel)
        #expect(panel.message?.text.contains("clickFeedbackMode: 'blinking' is not one of None, NonselectedGray") == true)
        #expect(settings.textFor(.clickFeedbackMode) == "SelectedAnimates")
        Self.type("\rredborder\r", panel)
        #expect(settings.textFor(.clickFeedbackMode) == "RedBorder")
        panel.handle(key: Self.enter)
        panel.handle(key: 0x09)               // after RedBorder comes None
        #expect(panel.editorText == "None")
        panel.handle(key: 0x09)
        panel.handle(key: Self.enter)
        #expect(settings.textFor(.clickFeedbackMode) == "NonselectedGray")

        Self.open(.timeInBetweenTrials, panel)
        Self.type("2.5\r", panel)
        #expect(settings.doubleFor(.timeInBetweenTrials) == 2.5)
    }

    @Test("Enter on a setting not in editableTitles says it is read-only here and opens no editor")
    func readOnly() throws {
        let settings = NoiseTagSettings()
        let panel = DeveloperPanelScene(settings: settings)
        let screen = Self.screen()
        panel.handle(key: Self.enter)                      // the first row: mode
        #expect(panel.editorText == nil)
        Self.type("TrainGeneric\r", panel)                 // not an editor: letters go to browsing, j moves
        panel.draw(on: screen, missedFrames: 0)
        #expect(settings.textFor(.mode) == "Test")
        #expect(panel.selectedTitle == .mode)
        #expect(Self.messageLine(screen).hasPrefix(" mode is read-only here (the blue rows are editable)"))
        #expect(Self.firstTextColor(screen, row: screen.size.rows - 2) == DeveloperPanelScene.note)

        let custom = DeveloperPanelScene(settings: settings, editableTitles: [.mode])
        custom.handle(key: Self.enter)
        #expect(custom.editorText == "")
        custom.handle(key: Self.escape)
        custom.flushPendingEscape()
        Self.open(.framesPerBit, custom)
        #expect(custom.editorText == nil)
        #expect(custom.message?.text == "framesPerBit is read-only here (the blue rows are editable)")
        // Blue: editable titles are drawn in the editable colour, the others not.
        custom.draw(on: screen, missedFrames: 0)
        #expect(screen[row: try #require(Self.row(of: .mode, in: screen)), column: 3].foreground == DeveloperPanelScene.editable)
        #expect(screen[row: try #require(Self.row(of: .framesPerBit, in: screen)), column: 3].foreground == DeveloperPanelScene.text)
    }

    @Test("A lone Esc cancels the editor when the frame is drawn; Esc followed by another key at once; arrows do not cancel")
    func escapeCancels() throws {
        let settings = NoiseTagSettings()
        let panel = DeveloperPanelScene(settings: settings)
        let screen = Self.screen()
        Self.open(.certaintyRequiredForPress, panel)
        Self.type("0.5", panel)
        Self.press(Self.arrowUp + Self.arrowDown, panel)
        #expect(panel.editorText == "0.5", "arrow keys are not Esc")
        panel.handle(key: Self.escape)
        #expect(panel.editorText == "0.5", "an Esc alone may still start a sequence")
        panel.draw(on: screen, missedFrames: 0)
        #expect(panel.editorText == nil)
        #expect(settings.doubleFor(.certaintyRequiredForPress) == 0.9)
        #expect(panel.message?.kind == .note)
        #expect(Self.messageLine(screen).contains("edit cancelled; certaintyRequiredForPress is still 0.9"))
        #expect(Self.text(screen, row: screen.size.rows - 1).contains("d/x close"))

        panel.handle(key: Self.enter)
        Self.type("0.5", panel)
        Self.press([Self.escape, UInt8(ascii: "j")], panel)   // Esc, then j while browsing
        #expect(panel.editorText == nil)
        #expect(panel.selectedTitle == NoiseTagSettingTitles.allCases[2])
        #expect(settings.doubleFor(.certaintyRequiredForPress) == 0.9)

        panel.handle(key: Self.enter)                          // disableNoClicks: read-only
        panel.handle(key: Self.escape)
        panel.flushPendingEscape()
        #expect(panel.message == nil, "Esc while browsing clears the message")
    }

    @Test("d and x call onClose; other keys go to onKey, arrows do not")
    func closeAndOtherKeys() {
        let panel = DeveloperPanelScene(settings: NoiseTagSettings())
        var closed = 0
        var keys: [UInt8] = []
        panel.onClose = { closed += 1 }
        panel.onKey = { keys.append($0) }
        panel.handle(key: UInt8(ascii: "d"))
        #expect(closed == 1)
        panel.handle(key: UInt8(ascii: "x"))
        #expect(closed == 2)
        Self.press(Self.arrowDown + [UInt8(ascii: " "), UInt8(ascii: "s")] + Self.arrowUp + [0x1B, UInt8(ascii: "["), UInt8(ascii: "5"), UInt8(ascii: "~")], panel)
        #expect(keys == [UInt8(ascii: " "), UInt8(ascii: "s")])
        #expect(closed == 2)
        // While editing, d and x are text.
        panel.handle(key: Self.enter)
        panel.handle(key: Self.enter)
        #expect(panel.editorText == nil)
        let editing = DeveloperPanelScene(settings: NoiseTagSettings(), editableTitles: [.mode])
        editing.onClose = { closed += 1 }
        editing.handle(key: Self.enter)
        Self.type("dx", editing)
        #expect(editing.editorText == "dx")
        #expect(closed == 2)
    }

    @Test("At the minimum size long titles and values are cut with … and nothing spills past the edge")
    func truncates() throws {
        let settings = NoiseTagSettings()
        let long = "/recordings/" + String(repeating: "codebook-", count: 40) + ".txt"
        try settings.set(value: long, for: .filenameNoiseTags)
        let panel = DeveloperPanelScene(settings: settings)
        #expect(panel.minimumSize == TerminalSize(columns: 60, rows: 12))
        let screen = Self.screen(60, 12)
        Self.open(.filenameNoiseTags, panel)        // read-only: only moves the selection there
        panel.draw(on: screen, missedFrames: 3)
        let row = try #require(Self.row(of: .filenameNoiseTags, in: screen))
        let line = Self.text(screen, row: row)
        #expect(line.hasPrefix(" * filenameNoiseTags"))
        #expect(line.contains(" /recordings/co… "))
        #expect(line.hasSuffix("… "))
        #expect(Self.text(screen, row: 0).contains("missed 3"))
        #expect(Self.messageLine(screen).hasSuffix("… "))
        #expect(Self.text(screen, row: screen.size.rows - 3).hasSuffix("… "))
        #expect(DeveloperPanelScene.fitted("abcdef", width: 4) == "abc…")
        #expect(DeveloperPanelScene.fitted("abc", width: 3) == "abc")
    }

    @Test("The key decoder puts arrow sequences together, swallows other sequences and holds a lone Esc until flushed")
    func keyDecoder() {
        var decoder = TerminalKeyDecoder()
        var keys: [TerminalKey] = []
        for byte in Array("\u{1B}[A\u{1B}OBj\u{1B}[1;5C\u{1B}[6~\u{1B}x\u{1B}\u{1B}".utf8) { keys += decoder.feed(byte) }
        #expect(keys == [.up, .down, .byte(UInt8(ascii: "j")), .escape, .byte(UInt8(ascii: "x")), .escape])
        #expect(decoder.isEscapePending)
        #expect(decoder.flush() == .escape)
        #expect(decoder.flush() == nil)
        _ = decoder.feed(0x1B)
        _ = decoder.feed(UInt8(ascii: "["))
        #expect(decoder.flush() == nil, "a sequence under way keeps waiting")
        #expect(decoder.feed(UInt8(ascii: "D")) == [.left])
    }
}
