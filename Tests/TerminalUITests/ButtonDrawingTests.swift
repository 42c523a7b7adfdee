import NoiseTagging
import Testing
import UtopiaProtocol
@testable import TerminalUI

/// Plain NoiseTagButtons drawn from the state a real controller gives them.
@Suite("Button drawing")
struct ButtonDrawingTests {
    private final class Grid: NoiseTagDelegate {
        let view = NoiseTagView()
        let buttons: [NoiseTagButton]
        init(_ buttons: [NoiseTagButton] = [
            NoiseTagButton(identifier: "A", label: "A", frame: NoiseTagRect(x: 0, y: 0, width: 7, height: 3)),
            NoiseTagButton(identifier: "B", label: "B", frame: NoiseTagRect(x: 8, y: 0, width: 7, height: 3)),
        ]) {
            self.buttons = buttons
            for button in buttons { view.add(button) }
        }
    }

    /// A controller on a virtual clock running Test-mode trials on `grid`,
    /// with `settings` applied first, and its frame loop.
    private static func runningTrials(on grid: Grid, settings: (NoiseTagSettings) throws -> Void = { _ in })
        throws -> (controller: NoiseTagController, loop: FrameLoop) {
        let clock = VirtualClock()
        let controller = NoiseTagController(clock: clock, decoderLink: InMemoryDecoderLink())
        try controller.settings.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        try settings(controller.settings)
        controller.push(view: grid.view, forNoiseTaggingWithDelegate: grid)
        controller.set(mode: .test)
        controller.trialsAreRunning = true
        return (controller, FrameLoop(controller: controller, waiter: VirtualFrameWaiter(clock: clock)))
    }

    /// A grid running trials, drawn on a screen with a one-cell margin around
    /// the buttons' region (three rows high): what the flicker tests step
    /// through frame by frame.
    private struct DrawnGrid {
        let loop: FrameLoop
        let screen: TerminalScreen
        let layout: ButtonLayout
        let region: CellRect
        let palette: StimulusPalette

        /// `grid` running trials (``runningTrials(on:settings:)``) in a region `width` cells wide.
        init(_ grid: Grid, width: Int, settings: (NoiseTagSettings) throws -> Void = { _ in }) throws {
            let controller: NoiseTagController
            (controller, loop) = try ButtonDrawingTests.runningTrials(on: grid, settings: settings)
            screen = TerminalScreen(size: TerminalSize(columns: width + 2, rows: 5), colorMode: .trueColor)
            layout = ButtonLayout(buttons: grid.buttons)
            region = CellRect(row: 1, column: 1, width: width, height: 3)
            palette = StimulusPalette(settings: controller.settings)
        }

        /// Runs one frame and draws the buttons as it left them.
        func step() {
            loop.step()
            layout.draw(on: screen, in: region, palette: palette)
        }
    }

    /// The cells of `rect`'s border: its outer ring, or its left and right
    /// columns when it is one or two rows high.
    private static func borderCells(of rect: CellRect) -> [(row: Int, column: Int)] {
        var cells: [(row: Int, column: Int)] = []
        for row in rect.row..<(rect.row + rect.height) {
            for column in rect.column..<(rect.column + rect.width) {
                let onSide = column == rect.column || column == rect.column + rect.width - 1
                let onTopOrBottom = rect.height >= 3 && (row == rect.row || row == rect.row + rect.height - 1)
                if onSide || onTopOrBottom { cells.append((row, column)) }
            }
        }
        return cells
    }

    /// The text of `width` cells of `row` from `column`.
    private static func text(on screen: TerminalScreen, row: Int, column: Int, width: Int) -> String {
        String(String.UnicodeScalarView((column..<(column + width)).map { screen[row: row, column: $0].character }))
    }

    @Test("Each button is a block in its flicker colour with its label centred in the contrasting colour")
    func flickeringButtons() throws {
        let grid = Grid()
        let drawn = try DrawnGrid(grid, width: 15)
        let (screen, layout, region, palette) = (drawn.screen, drawn.layout, drawn.region, drawn.palette)
        var seen: [Set<TerminalRGB>] = [[], []]
        for _ in 0..<120 {
            drawn.step()
            for (k, button) in grid.buttons.enumerated() {
                let rect = layout.screenRect(of: button, in: region)
                let corner = screen[row: rect.row, column: rect.column]
                let label = screen[row: rect.center.row, column: rect.center.column]
                if let flicker = button.flickerColor { #expect(corner.background == TerminalRGB(flicker)) }
                #expect(label.character == Unicode.Scalar(button.label))
                #expect(label.background == corner.background)
                #expect(label.foreground == corner.background.contrastingText)
                seen[k].insert(corner.background)
            }
        }
        let on = TerminalRGB(palette.bitOn), off = TerminalRGB(palette.bitOff)
        #expect(seen[0] == [on, off])
        #expect(seen[1] == [on, off])
        // The layout sits centred in the region: button A's block starts in the region's first column.
        #expect(layout.screenRect(of: grid.buttons[0], in: region) == CellRect(row: 1, column: 1, width: 7, height: 3))
    }

    @Test("Outside a trial a button shows its resting colour, feedback overrides it, hidden ones are not drawn")
    func restingFeedbackHidden() {
        let button = NoiseTagButton(identifier: "A", label: "Yes", frame: NoiseTagRect(x: 0, y: 0, width: 5, height: 1))
        let hidden = NoiseTagButton(identifier: "H", label: "H", frame: NoiseTagRect(x: 6, y: 0, width: 1, height: 1))
        hidden.isHidden = true
        let palette = StimulusPalette(settings: NoiseTagSettings())
        let screen = TerminalScreen(size: TerminalSize(columns: 7, rows: 1), colorMode: .trueColor)
        let layout = ButtonLayout(buttons: [button, hidden])
        let region = CellRect(row: 0, column: 0, width: 7, height: 1)
        layout.draw(on: screen, in: region, palette: palette)
        #expect(screen[row: 0, column: 0].background == TerminalRGB(palette.enabled))
        #expect(String(String.UnicodeScalarView((1...3).map { screen[row: 0, column: $0].character })) == "Yes")
        #expect(screen[row: 0, column: 6] == .blank)
        button.setFeedbackColor(.red)
        layout.draw(on: screen, in: region, palette: palette)
        #expect(screen[row: 0, column: 0].background == TerminalRGB(red: 255, green: 0, blue: 0))
    }

    @Test("labeledButtonsOnlyPartlyFlicker: a labelled button's interior and label keep their colours across frames, its border flickers")
    func borderOnlyFlicker() throws {
        let grid = Grid([
            NoiseTagButton(identifier: "A", label: "A", frame: NoiseTagRect(x: 0, y: 0, width: 7, height: 3)),
            NoiseTagButton(identifier: "Yes", label: "Yes", frame: NoiseTagRect(x: 8, y: 0, width: 5, height: 1)),
            NoiseTagButton(identifier: "blank", label: "", frame: NoiseTagRect(x: 8, y: 2, width: 5, height: 1)),
        ])
        let drawn = try DrawnGrid(grid, width: 13) {
            try $0.set(value: .bool(true), for: .labeledButtonsOnlyPartlyFlicker)
        }
        let (screen, layout, region, palette) = (drawn.screen, drawn.layout, drawn.region, drawn.palette)
        var interiors: [[TerminalCell]] = [[], [], []], borders: [Set<TerminalRGB>] = [[], [], []]
        var flickeringFrames = 0
        for _ in 0..<120 {
            drawn.step()
            guard grid.buttons.allSatisfy({ $0.flickerColor != nil }) else { continue }
            flickeringFrames += 1
            #expect(grid.buttons.map(\.noiseTagging.renderHints.flickersOnlyBorder) == [true, true, false])
            for (k, button) in grid.buttons.enumerated() {
                let rect = layout.screenRect(of: button, in: region)
                let border = Self.borderCells(of: rect)
                for (row, column) in border {
                    #expect(screen[row: row, column: column].background == TerminalRGB(button.flickerColor!))
                    borders[k].insert(screen[row: row, column: column].background)
                }
                for row in rect.row..<(rect.row + rect.height) {
                    for column in rect.column..<(rect.column + rect.width)
                    where !border.contains(where: { $0 == (row, column) }) {
                        let cell = screen[row: row, column: column]
                        if !interiors[k].contains(cell) { interiors[k].append(cell) }
                    }
                }
            }
        }
        #expect(flickeringFrames > 30)
        let on = TerminalRGB(palette.bitOn), off = TerminalRGB(palette.bitOff)
        for k in 0..<3 { #expect(borders[k] == [on, off], "the border of \(grid.buttons[k].noiseTagging.identifier!) flickers") }
        // A labelled button: the interior stays resting-coloured, the label readable on it, in every frame.
        let resting = TerminalRGB(grid.buttons[0].noiseTagging.defaultColor)
        func cell(_ character: Unicode.Scalar) -> TerminalCell {
            TerminalCell(character: character, foreground: resting.contrastingText, background: resting)
        }
        #expect(interiors[0] == [cell(" "), cell("A")])
        // One row high: the left and right columns flicker, "Yes" stays between them.
        #expect(interiors[1] == [cell("Y"), cell("e"), cell("s")])
        // Without a label the engine asks for no border-only flicker: the whole block flickers.
        #expect(Set(interiors[2].map(\.background)) == [on, off])
    }

    @Test("showNoiseTagIDsOnControls: each flickering button shows its object ID top-left in a contrasting colour, none when the setting is off")
    func objectIDs() throws {
        for shown in [true, false] {
            let grid = Grid()
            let drawn = try DrawnGrid(grid, width: 15) {
                try $0.set(value: .bool(shown), for: .showNoiseTagIDsOnControls)
            }
            let (screen, layout, region) = (drawn.screen, drawn.layout, drawn.region)
            var checked = 0
            for _ in 0..<90 {
                drawn.step()
                for button in grid.buttons where button.flickerColor != nil {
                    let id = try #require(button.noiseTagging.renderHints.objectID)
                    let rect = layout.screenRect(of: button, in: region)
                    let expected = shown ? "#\(id)" : ""
                    let top = Self.text(on: screen, row: rect.row, column: rect.column, width: rect.width)
                    #expect(top == expected + String(repeating: " ", count: rect.width - expected.count))
                    for column in rect.column..<(rect.column + rect.width) {
                        let cell = screen[row: rect.row, column: column]
                        #expect(cell.background == TerminalRGB(button.flickerColor!))
                        if cell.character != " " { #expect(cell.foreground == cell.background.contrastingText) }
                    }
                    checked += 1
                }
            }
            #expect(checked > 60)
            #expect(Set(grid.buttons.compactMap(\.noiseTagging.renderHints.objectID)).count == grid.buttons.count)
        }
    }

    @Test("An object ID too wide for its button loses the '#', then its last digits")
    func narrowObjectID() {
        let screen = TerminalScreen(size: TerminalSize(columns: 6, rows: 1), colorMode: .trueColor)
        let ring = TerminalRGB.white, interior = TerminalRGB(red: 0, green: 0, blue: 90)
        for (width, text) in [(6, "#123  "), (4, "#123  "), (3, "123   "), (2, "12    "), (0, "      ")] {
            screen.clear(to: TerminalCell(character: " ", foreground: .white, background: .black))
            ButtonLayout.drawObjectID(123, on: screen, row: 0, column: 0, width: width, ring: ring, interior: interior,
                                      ringsWholeTopRow: false)
            #expect(Self.text(on: screen, row: 0, column: 0, width: 6) == text)
        }
        // On a one-row button only the first and last columns are border.
        ButtonLayout.drawObjectID(123, on: screen, row: 0, column: 0, width: 4, ring: ring, interior: interior,
                                  ringsWholeTopRow: false)
        #expect(screen[row: 0, column: 0] == TerminalCell(character: "#", foreground: .black, background: ring))
        #expect(screen[row: 0, column: 1] == TerminalCell(character: "1", foreground: .white, background: interior))
        #expect(screen[row: 0, column: 3] == TerminalCell(character: "3", foreground: .black, background: ring))
    }

    @Test("RedBorder: after a touch press the pressed button has a red border around its normal interior")
    func redBorderFeedback() throws {
        let grid = Grid()
        let (controller, loop) = try Self.runningTrials(on: grid) {
            try $0.set(value: .text("RedBorder"), for: .clickFeedbackMode)
        }
        let scene = ButtonBoardScene(controller: controller, buttons: grid.buttons, footer: TerminalFooter(keys: []))
        let screen = TerminalScreen(size: scene.minimumSize, colorMode: .trueColor)
        for _ in 0..<30 { loop.step() }
        #expect(controller.currentPhase == .flicker)
        let pressed = grid.buttons[0], other = grid.buttons[1]
        controller.touchPress(pressed)
        try #require(pressed.feedbackColor == .red)
        scene.draw(on: screen, missedFrames: 0)
        let red = TerminalRGB(red: 255, green: 0, blue: 0)
        let palette = StimulusPalette(settings: controller.settings)
        let region = scene.buttonRegion(in: screen.size)
        let rect = scene.layout.screenRect(of: pressed, in: region)
        let border = Self.borderCells(of: rect)
        for (row, column) in border { #expect(screen[row: row, column: column].background == red) }
        for row in rect.row..<(rect.row + rect.height) {
            for column in rect.column..<(rect.column + rect.width) where !border.contains(where: { $0 == (row, column) }) {
                #expect(screen[row: row, column: column].background == TerminalRGB(palette.enabled))
            }
        }
        #expect(screen[row: rect.center.row, column: rect.center.column].character == "A")
        let otherRect = scene.layout.screenRect(of: other, in: region)
        #expect(screen[row: otherRect.row, column: otherRect.column].background != red)
        // Once the touch feedback is over the border goes.
        for _ in 0..<30 { loop.step() }
        scene.draw(on: screen, missedFrames: 0)
        #expect(pressed.feedbackColor == nil)
        #expect(screen[row: rect.row, column: rect.column].background != red)
    }

    @Test("Without the RedBorder mode a red feedback colour fills the whole block")
    func redFeedbackInOtherModes() {
        let button = NoiseTagButton(identifier: "A", label: "A", frame: NoiseTagRect(x: 0, y: 0, width: 5, height: 3))
        button.setFeedbackColor(.red)
        let palette = StimulusPalette(settings: NoiseTagSettings())
        let screen = TerminalScreen(size: TerminalSize(columns: 5, rows: 3), colorMode: .trueColor)
        let layout = ButtonLayout(buttons: [button])
        let region = CellRect(row: 0, column: 0, width: 5, height: 3)
        let red = TerminalRGB(red: 255, green: 0, blue: 0)
        for mode: ClickFeedbackMode? in [nil, .selectedAnimates, .nonselectedGray, ClickFeedbackMode.none] {
            layout.draw(on: screen, in: region, palette: palette, feedbackMode: mode)
            #expect(screen[row: 1, column: 2].background == red)
        }
        layout.draw(on: screen, in: region, palette: palette, feedbackMode: .redBorder)
        #expect(screen[row: 1, column: 2].background == TerminalRGB(palette.enabled))
        #expect(screen[row: 1, column: 0].background == red)
    }

    /// Buttons labelled `labels`, 7 × 3 cells each, one cell apart in a row.
    private static func buttons(_ labels: [String]) -> [NoiseTagButton] {
        labels.enumerated().map { index, label in
            NoiseTagButton(identifier: label, label: label, frame: NoiseTagRect(x: Double(index * 8), y: 0, width: 7, height: 3))
        }
    }

    /// The labels drawn on `screen`, in reading order.
    private static func labels(on screen: TerminalScreen, among candidates: [String]) -> [String] {
        var found: [String] = []
        for row in 1..<(screen.size.rows - 1) {
            for column in 0..<screen.size.columns {
                let character = String(screen[row: row, column: column].character)
                if candidates.contains(character), !found.contains(character) { found.append(character) }
            }
        }
        return found
    }

    @Test("a board made without buttons follows the stack: a push shows the new unit's buttons and a pop the old ones again; keys press what is shown")
    func followsPushAndPop() {
        let controller = NoiseTagController(clock: VirtualClock(), decoderLink: InMemoryDecoderLink())
        let main = Grid(Self.buttons(["A", "B"])), sub = Grid(Self.buttons(["C", "D", "E"]))
        controller.push(view: main.view, forNoiseTaggingWithDelegate: main)
        let scene = ButtonBoardScene(controller: controller, footer: TerminalFooter(keys: []))
        let screen = TerminalScreen(size: TerminalSize(columns: 40, rows: 8), colorMode: .trueColor)
        let all = ["A", "B", "C", "D", "E"]
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: all) == ["A", "B"])

        controller.push(view: sub.view, forNoiseTaggingWithDelegate: sub)
        #expect(scene.minimumSize.columns == 3 * 8 - 1 + 2)
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: all) == ["C", "D", "E"])
        var pressed: [String] = []
        controller.events.subscribe { if case .press(let press) = $0.kind { pressed.append(press.control) } }
        scene.handle(key: UInt8(ascii: "A"))
        scene.handle(key: UInt8(ascii: "D"))
        #expect(pressed == ["D"], "only the shown unit's buttons are pressed by their keys")

        controller.pop()
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: all) == ["A", "B"])
    }

    @Test("a board given its buttons keeps drawing them after a push")
    func givenButtonsStay() {
        let controller = NoiseTagController(clock: VirtualClock(), decoderLink: InMemoryDecoderLink())
        let main = Grid(Self.buttons(["A", "B"])), sub = Grid(Self.buttons(["C"]))
        controller.push(view: main.view, forNoiseTaggingWithDelegate: main)
        let scene = ButtonBoardScene(controller: controller, buttons: main.buttons, footer: TerminalFooter(keys: []))
        controller.push(view: sub.view, forNoiseTaggingWithDelegate: sub)
        let screen = TerminalScreen(size: scene.minimumSize, colorMode: .trueColor)
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: ["A", "B", "C"]) == ["A", "B"])
    }
}
