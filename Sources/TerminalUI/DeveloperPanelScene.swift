import NoiseTagging

/// The developer panel: every setting with its current value, one per row,
/// and an inline editor for a few of them.
///
/// The header says how many settings there are and how many differ from
/// their default; changed rows are marked `*` (and show the default). The
/// selected row is highlighted and described (kind, range, meaning) under
/// the list. Keys:
///
/// - up/down arrows or `k`/`j`: move the selection (the list scrolls);
/// - Enter on an editable row (titles in blue; ``editableTitles``) opens
///   the editor line: type the value (printable characters, Backspace
///   deletes, Ctrl-U clears, Tab steps through the choices of a choice or
///   bool setting), Enter applies, Esc cancels. The text is read according
///   to the setting's kind and set through ``NoiseTagSettings/set(value:for:)``:
///   success shows `certaintyRequiredForPress = 0.95` in green; a refusal
///   shows the settings error (naming the setting and the reason) in red
///   and leaves the value as it was. Enter on another row says it is
///   read-only here;
/// - `d` or `x`: ``onClose``; every other key goes to ``onKey``.
///
/// Esc arrives as the byte 0x1B, which also starts the arrow keys'
/// sequences (`ESC [ A`), so an Esc is only known to be alone when nothing
/// follows it: ``TerminalRunner`` hands a scene every byte it read before
/// drawing, so ``draw(on:missedFrames:)`` first calls
/// ``flushPendingEscape()`` and an Esc still pending then counts as Esc.
/// An Esc followed by a byte other than `[` or `O` counts at once.
/// The runner keeps `q` (quit) for itself: it cannot be typed in the editor.
///
/// ```swift
/// let panel = DeveloperPanelScene(settings: controller.settings)
/// panel.onClose = { current = board }
/// panel.onKey = { key in board.handle(key: key) }
/// board.onKey = { key in if key == UInt8(ascii: "d") { current = panel } }
/// ```
public final class DeveloperPanelScene: TerminalScene {
    /// The settings shown and edited.
    public let settings: NoiseTagSettings
    /// The settings Enter edits; the others are read-only here.
    public let editableTitles: Set<NoiseTagSettingTitles>
    /// The keys line while browsing (the editor shows its own).
    public var footer: TerminalFooter
    /// Called when `d` or `x` closes the panel.
    public var onClose: () -> Void = {}
    /// Keys the panel does not use while browsing.
    public var onKey: (UInt8) -> Void = { _ in }

    /// The row selected, an index into ``titles``.
    public internal(set) var selectedIndex = 0
    /// The first row shown (the list scrolls to keep the selection in view when drawn).
    public internal(set) var firstVisibleIndex = 0
    /// The editor line's text, nil while the editor is closed.
    public internal(set) var editorText: String?
    /// What the last edit did, or why it did nothing; nil when there is nothing to say.
    public internal(set) var message: DeveloperPanelMessage?

    var keyDecoder = TerminalKeyDecoder()
    /// The keys line while the editor is open.
    let editingFooter = TerminalFooter(keys: [("enter", "apply"), ("esc", "cancel"), ("backspace", "delete"),
                                                      ("tab", "next choice")])

    /// Every setting title, in the order of the list.
    public static let titles = NoiseTagSettingTitles.allCases
    /// The settings editable unless the caller says otherwise.
    public static let defaultEditableTitles: Set<NoiseTagSettingTitles> = [
        .certaintyRequiredForPress, .framesPerBit, .clickFeedbackMode, .timeInBetweenTrials,
    ]
    /// The keys line while browsing, unless the caller gives another.
    public static var defaultFooter: TerminalFooter {
        TerminalFooter(keys: [("up/down j/k", "move"), ("enter", "edit blue rows"), ("d/x", "close"), ("q", "quit")])
    }

    static let background = TerminalTheme.background, text = TerminalTheme.text, dim = TerminalTheme.dim
    static let selection = TerminalRGB(red: 45, green: 60, blue: 95)
    static let editable = TerminalTheme.accent
    static let changed = TerminalRGB(red: 255, green: 210, blue: 90)
    static let applied = TerminalTheme.good, refused = TerminalTheme.refused, note = TerminalTheme.warning
    static let editorBackground = TerminalTheme.boxBackground
    /// The editor takes at most this many characters.
    static let longestInput = 200
    /// The value column keeps at least this many cells; titles are cut to leave them.
    static let narrowestValue = 12

    /// Creates the panel over `settings`.
    public init(settings: NoiseTagSettings,
                editableTitles: Set<NoiseTagSettingTitles> = DeveloperPanelScene.defaultEditableTitles,
                footer: TerminalFooter = DeveloperPanelScene.defaultFooter) {
        self.settings = settings
        self.editableTitles = editableTitles
        self.footer = footer
    }

    /// The title of the selected row.
    public var selectedTitle: NoiseTagSettingTitles { Self.titles[selectedIndex] }

    /// Header, eight rows of list, the description, message and footer lines, 60 columns.
    public var minimumSize: TerminalSize { TerminalSize(columns: 60, rows: 12) }

    /// The rows of the list: under the header, above the description, message and footer lines.
    public func listRect(in size: TerminalSize) -> CellRect {
        CellRect(row: 1, column: 0, width: size.columns, height: max(0, size.rows - 4))
    }

    /// Takes a pending lone Esc as Esc (cancelling the editor, or clearing
    /// the message while browsing). ``draw(on:missedFrames:)`` calls it, so
    /// under ``TerminalRunner`` there is no need to; a runner that draws
    /// before handing over all the bytes it read must not call it between them.
    public func flushPendingEscape() {
        if let key = keyDecoder.flush() { handle(key) }
    }

    /// Draws header, list, description, editor or message, and footer
    /// (after ``flushPendingEscape()``).
    public func draw(on screen: TerminalScreen, missedFrames: Int) {
        flushPendingEscape()
        let size = screen.size
        screen.clear(to: TerminalCell(character: " ", foreground: Self.text, background: Self.background))
        drawHeader(on: screen, missedFrames: missedFrames)
        drawList(on: screen, in: listRect(in: size))
        drawDescription(on: screen, row: size.rows - 3)
        if let editorText {
            drawEditor(editorText, on: screen, row: size.rows - 2)
        } else if let message {
            let color = switch message.kind {
            case .applied: Self.applied
            case .refused: Self.refused
            case .note: Self.note
            }
            screen.write(Self.fitted(message.text, width: size.columns - 2), row: size.rows - 2, column: 1,
                         foreground: color, background: Self.background)
        }
        (editorText == nil ? footer : editingFooter).draw(on: screen, row: size.rows - 1)
    }

    /// Answers one key byte; arrow keys and Esc are put together from their bytes first.
    public func handle(key byte: UInt8) {
        for key in keyDecoder.feed(byte) { handle(key) }
    }

    // MARK: Drawing

    func shownValue(_ title: NoiseTagSettingTitles) -> String {
        settings.value(for: title).description.singleCellText
    }

    func drawHeader(on screen: TerminalScreen, missedFrames: Int) {
        let fg = TerminalHeader.foreground
        var line = TerminalHeaderLine(screen: screen, row: 0)
        func text(_ s: String, _ color: TerminalRGB = fg) { line.text(s, color) }
        func separator() { line.separator() }
        let changedCount = settings.nonDefaultCount
        text("Developer panel — \(Self.titles.count) settings, ")
        text("\(changedCount) changed", changedCount > 0 ? Self.changed : fg)
        separator()
        text("missed \(missedFrames)", missedFrames > 0 ? TerminalHeader.below : fg)
    }

    func drawList(on screen: TerminalScreen, in rect: CellRect) {
        let count = Self.titles.count
        let visible = rect.height
        guard visible > 0 else { return }
        if selectedIndex < firstVisibleIndex { firstVisibleIndex = selectedIndex }
        if selectedIndex >= firstVisibleIndex + visible { firstVisibleIndex = selectedIndex - visible + 1 }
        firstVisibleIndex = min(max(firstVisibleIndex, 0), max(0, count - visible))
        let longestTitle = Self.titles.map { $0.rawValue.unicodeScalars.count }.max() ?? 0
        let titleColumn = rect.column + 3
        let titleWidth = max(1, min(longestTitle, rect.width - 3 - 2 - Self.narrowestValue))
        let valueColumn = titleColumn + titleWidth + 2
        let valueWidth = rect.column + rect.width - 1 - valueColumn
        for offset in 0..<visible {
            let index = firstVisibleIndex + offset
            guard index < count else { break }
            let row = rect.row + offset
            let title = Self.titles[index]
            let setting = settings.settingWith(title: title)
            let bg = index == selectedIndex ? Self.selection : Self.background
            if index == selectedIndex {
                screen.fill(CellRect(row: row, column: rect.column, width: rect.width, height: 1), with: bg, foreground: Self.text)
            }
            if !setting.isDefault {
                screen.put("*", row: row, column: rect.column + 1, foreground: Self.changed, background: bg)
            }
            screen.write(Self.fitted(title.rawValue, width: titleWidth), row: row, column: titleColumn,
                         foreground: editableTitles.contains(title) ? Self.editable : Self.text, background: bg)
            let value = setting.value.description.singleCellText
            var used = screen.write(Self.fitted(value, width: valueWidth), row: row, column: valueColumn,
                                    foreground: setting.isDefault ? Self.text : Self.changed, background: bg)
            if !setting.isDefault && used < valueWidth {
                let note = "  (default \(setting.definition.defaultValue.description.singleCellText))"
                used += screen.write(Self.fitted(note, width: valueWidth - used), row: row, column: valueColumn + used,
                                     foreground: Self.dim, background: bg)
            }
        }
    }

    func drawDescription(on screen: TerminalScreen, row: Int) {
        let title = selectedTitle
        let definition = title.definition
        let access = editableTitles.contains(title) ? "editable" : "read-only here"
        let line = "\(title.rawValue): \(definition.kind.words), \(access). \(definition.summary)"
        screen.write(Self.fitted(line.singleCellText, width: screen.size.columns - 2), row: row, column: 1,
                     foreground: Self.dim, background: Self.background)
    }

    func drawEditor(_ text: String, on screen: TerminalScreen, row: Int) {
        let bg = Self.editorBackground
        screen.fill(CellRect(row: row, column: 0, width: screen.size.columns, height: 1), with: bg, foreground: Self.text)
        var x = 1
        x += screen.write(selectedTitle.rawValue + " = ", row: row, column: x, foreground: Self.editable, background: bg)
        let room = max(0, screen.size.columns - 1 - x - 1)
        let scalars = Array(text.unicodeScalars)
        let shown = scalars.count <= room ? scalars : Array(scalars.suffix(room))
        x += screen.write(String(String.UnicodeScalarView(shown)), row: row, column: x, foreground: .white, background: bg)
        screen.put("█", row: row, column: x, foreground: Self.editable, background: bg)
    }

    /// `text` cut to `width` cells, its last cell `…` when cut.
    static func fitted(_ text: String, width: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > width else { return text }
        guard width > 0 else { return "" }
        return String(String.UnicodeScalarView(scalars.prefix(width - 1))) + "…"
    }
}
