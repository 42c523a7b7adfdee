import NoiseTagging
import Testing
@testable import TerminalUI

/// Plain NoiseTagButtons drawn from the state a real controller gives them.
@Suite("Button drawing")
struct ButtonDrawingTests {
    private final class Grid: NoiseTagDelegate {
        let view = NoiseTagView()
        let buttons = [
            NoiseTagButton(identifier: "A", label: "A", frame: NoiseTagRect(x: 0, y: 0, width: 7, height: 3)),
            NoiseTagButton(identifier: "B", label: "B", frame: NoiseTagRect(x: 8, y: 0, width: 7, height: 3)),
        ]
        init() { for button in buttons { view.add(button) } }
    }

    @Test("Each button is a block in its flicker colour with its label centred in the contrasting colour")
    func flickeringButtons() throws {
        let clock = VirtualClock()
        let controller = NoiseTagController(clock: clock, decoderLink: InMemoryDecoderLink())
        try controller.settings.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        let grid = Grid()
        controller.push(view: grid.view, forNoiseTaggingWithDelegate: grid)
        controller.set(mode: .test)
        controller.trialsAreRunning = true
        let loop = FrameLoop(controller: controller, waiter: VirtualFrameWaiter(clock: clock))
        let screen = TerminalScreen(size: TerminalSize(columns: 17, rows: 5), colorMode: .trueColor)
        let layout = ButtonLayout(buttons: grid.buttons)
        let region = CellRect(row: 1, column: 1, width: 15, height: 3)
        let palette = StimulusPalette(settings: controller.settings)
        var seen: [Set<TerminalRGB>] = [[], []]
        for _ in 0..<120 {
            loop.step()
            layout.draw(on: screen, in: region, palette: palette)
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
}
