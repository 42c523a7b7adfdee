import NoiseTagging
import Testing
@testable import TerminalUI

@Suite("Header, footer and waiting screen")
struct HeaderFooterTests {
    private func text(_ screen: TerminalScreen, row: Int) -> String {
        String(String.UnicodeScalarView((0..<screen.size.columns).map { screen[row: row, column: $0].character }))
    }

    @Test("The header shows mode, trial and phase, decoder, the leading control's bar against the threshold, missed frames")
    func header() {
        let screen = TerminalScreen(size: TerminalSize(columns: 120, rows: 1), colorMode: .trueColor)
        let header = TerminalHeader(mode: "Test", trial: 3, phase: "flicker", decoder: "connected",
                                    leading: ("7", 0.95), threshold: 0.9, missedFrames: 2)
        header.draw(on: screen, row: 0)
        let line = text(screen, row: 0)
        #expect(line.contains("Test │ trial 3 flicker │ decoder connected │ missed 2 │ 7 "))
        #expect(line.contains("0.95/0.90"))
        // On the decades-of-error scale 0.95 fills 3 of 8 cells (log10(20) / 4), the mark for 0.9 is on cell 2 (a quarter).
        #expect(line.contains(" 7 ██|░░░░░ 0.95"))
        let mark = line.unicodeScalars.firstIndex(of: "|")!
        let markColumn = line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: mark)
        #expect(screen[row: 0, column: markColumn - 1].foreground == TerminalHeader.above)
    }

    @Test("Between trials and without a prediction the header says so; below the threshold the bar is the warning colour")
    func headerIdle() {
        let screen = TerminalScreen(size: TerminalSize(columns: 120, rows: 1), colorMode: .trueColor)
        TerminalHeader(mode: "TrainGeneric", trial: nil, phase: nil, decoder: "connecting", leading: nil,
                       threshold: 0.9, missedFrames: 0).draw(on: screen, row: 0)
        #expect(text(screen, row: 0).contains("TrainGeneric │ between trials │ decoder connecting │ missed 0 │ no prediction"))
        TerminalHeader(mode: "Test", trial: 1, phase: "flicker", decoder: "connected", leading: ("2", 0.5),
                       threshold: 0.9, missedFrames: 0).draw(on: screen, row: 0)
        let line = text(screen, row: 0)
        let start = line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: line.unicodeScalars.firstIndex(of: "█")!)
        #expect(screen[row: 0, column: start].foreground == TerminalHeader.below)
        #expect(line.contains(" 2 █░|░░░░░ 0.50/0.90"))
    }

    @Test("Thresholds near 1 are readable: four digits, and the bar in decades of error probability")
    func highThreshold() {
        let screen = TerminalScreen(size: TerminalSize(columns: 120, rows: 1), colorMode: .trueColor)
        TerminalHeader(mode: "Test", trial: 1, phase: "flicker", decoder: "connected", leading: ("L", 0.9991),
                       threshold: 0.9984, missedFrames: 0).draw(on: screen, row: 0)
        let line = text(screen, row: 0)
        #expect(line.contains(".9991/.9984"))
        // 0.9984 is 2.8 decades: the mark on cell 5 of 8; 0.9991 (3.05 decades) fills the cells up to it.
        #expect(line.contains(" L █████|░░ .9991"))
        // 0.99 (2 decades) stays a cell short of the mark.
        TerminalHeader(mode: "Test", trial: 1, phase: "flicker", decoder: "connected", leading: ("L", 0.99),
                       threshold: 0.9984, missedFrames: 0).draw(on: screen, row: 0)
        #expect(text(screen, row: 0).contains(" L ████░|░░ .9900"))
        #expect(abs(TerminalHeader.barPosition(of: 0.99) - 0.5) < 1e-9)
        // Below 1 is never shown as 1: the demo's ceiling threshold reads .9999, not 1.0000.
        TerminalHeader(mode: "Test", trial: 1, phase: "flicker", decoder: "connected", leading: ("L", 0.99999),
                       threshold: 0.999999, missedFrames: 0).draw(on: screen, row: 0)
        #expect(text(screen, row: 0).contains(" .9999/.9999"), "\(text(screen, row: 0))")
        #expect(TerminalHeader.barPosition(of: 1) == 1 && TerminalHeader.barPosition(of: .nan) == 0)
    }

    @Test("Values out of range or not a number never break a frame: clamped, NaN as 0")
    func nonFiniteValues() {
        let screen = TerminalScreen(size: TerminalSize(columns: 120, rows: 4), colorMode: .trueColor)
        TerminalHeader(mode: "Test", trial: 1, phase: "flicker", decoder: "connected", leading: ("1", .nan),
                       threshold: .nan, missedFrames: 0).draw(on: screen, row: 0)
        #expect(text(screen, row: 0).contains(".0000/1.0000"))
        var color = NoiseTagColor.white
        color.red = .nan
        color.green = 7
        #expect(TerminalRGB(color) == TerminalRGB(red: 0, green: 255, blue: 255))
        let button = NoiseTagButton(identifier: "x", label: "x",
                                    frame: NoiseTagRect(x: .nan, y: 1, width: .infinity, height: -3))
        #expect(ButtonLayout.cells(of: button.frame) == CellRect(row: 1, column: 0, width: 10_000, height: 1))
        ButtonLayout(buttons: [button]).draw(on: screen, in: CellRect(row: 1, column: 0, width: 120, height: 3),
                                             palette: StimulusPalette(settings: NoiseTagSettings()))
        #expect(screen[row: 1, column: 0].character == " ")
    }

    @Test("The header reads mode, trial, phase, decoder state and threshold from a controller")
    func headerFromController() throws {
        let clock = VirtualClock()
        let controller = NoiseTagController(clock: clock, decoderLink: InMemoryDecoderLink())
        try controller.settings.set(value: .double(0.8), for: .certaintyRequiredForPress)
        let header = TerminalHeader(controller: controller, missedFrames: 4)
        #expect(header == TerminalHeader(mode: "Test", trial: nil, phase: nil, decoder: "connected", leading: nil,
                                         threshold: 0.8, missedFrames: 4))
    }

    @Test("The footer lists each key with its meaning")
    func footer() {
        let screen = TerminalScreen(size: TerminalSize(columns: 60, rows: 1), colorMode: .trueColor)
        TerminalFooter(keys: [("space", "trials on/off"), ("q", "quit")]).draw(on: screen, row: 0)
        #expect(text(screen, row: 0).hasPrefix(" space trials on/off   q quit"))
    }

    @Test("A window below the minimum size shows what is needed and what there is")
    func tooSmall() {
        let screen = TerminalScreen(size: TerminalSize(columns: 40, rows: 5), colorMode: .trueColor)
        TerminalRunner.drawTooSmall(on: screen, needed: TerminalSize(columns: 60, rows: 20))
        let all = (0..<5).map { text(screen, row: $0) }.joined(separator: "\n")
        #expect(all.contains("Terminal too small"))
        #expect(all.contains("needs 60×20"))
        #expect(all.contains("has 40×5"))
    }
}
