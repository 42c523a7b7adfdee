import Decoding
import Foundation
import Testing
@testable import TerminalUI

/// The signal view drawn from a synthetic snapshot and read back from the
/// screen's cells: channel 1 a 10 Hz and a 50 Hz sine (good), channel 2
/// flat (fair), channel 3 a 10 Hz sine with NaN and infinite samples (bad).
@Suite("Signal view")
struct SignalViewTests {
    static let rate = 250.0

    static func snapshot(seconds: Double = 5, phase: Double = 0) -> SignalSnapshot {
        let times = (0..<Int(seconds * rate)).map { Double($0) / rate + phase }
        let alphaAndMains = times.map { 20 * sin(2 * .pi * 10 * $0) + 10 * sin(2 * .pi * 50 * $0) + 100 }
        var broken = times.map { 15 * sin(2 * .pi * 10 * $0) }
        for i in 500..<625 { broken[i] = .nan }
        broken[900] = .infinity
        return SignalSnapshot(sampleRate: rate, sampleCount: 10_000, channels: [
            .init(name: "Cz", samples: alphaAndMains, quality: 0.3),
            .init(name: "Pz", samples: [Double](repeating: 3, count: times.count), quality: 0.8, reason: "flat"),
            .init(name: "Oz", samples: broken, quality: 1.6),
        ])
    }

    static func screen(_ columns: Int = 100, _ rows: Int = 24) -> TerminalScreen {
        TerminalScreen(size: TerminalSize(columns: columns, rows: rows), colorMode: .trueColor)
    }

    static func text(_ screen: TerminalScreen, row: Int) -> String {
        String(String.UnicodeScalarView((0..<screen.size.columns).map { screen[row: row, column: $0].character }))
    }

    static func characters(_ screen: TerminalScreen, in rect: CellRect) -> [Unicode.Scalar] {
        (rect.row..<(rect.row + rect.height)).flatMap { row in
            (rect.column..<(rect.column + rect.width)).map { screen[row: row, column: $0].character }
        }
    }

    static func isBraille(_ scalar: Unicode.Scalar) -> Bool { (0x2801...0x28FF).contains(scalar.value) }

    /// A bar's height in eighths, read from its column's block characters.
    static func barEighths(_ screen: TerminalScreen, column: Int, rows: Range<Int>) -> Int {
        rows.reduce(0) { sum, row in
            sum + (SpectrumBars.blocks.firstIndex(of: screen[row: row, column: column].character).map { $0 + 1 } ?? 0)
        }
    }

    let area = CellRect(row: 0, column: 0, width: 100, height: 24)

    /// `snapshot` drawn by a new view over ``area`` of a fresh 100×24 screen,
    /// with the layout of that area's three bands to read it back by.
    private func drawn(_ snapshot: SignalSnapshot = SignalViewTests.snapshot()) -> (screen: TerminalScreen, layout: SignalViewLayout) {
        let screen = Self.screen()
        SignalView().draw(snapshot, on: screen, in: area)
        return (screen, SignalViewLayout(rect: area, channels: 3))
    }

    @Test("Each channel's trace is braille dots in its trace cells, and no braille is drawn anywhere else")
    func brailleTrace() {
        let (screen, layout) = drawn()
        #expect(layout.bands.count == 3)
        var inTraces = 0
        for band in layout.bands.indices {
            let dots = Self.characters(screen, in: layout.trace(band: band)).filter(Self.isBraille).count
            #expect(dots > 0, "channel \(band + 1) has no trace")
            inTraces += dots
        }
        let everywhere = Self.characters(screen, in: area).filter(Self.isBraille).count
        #expect(everywhere == inTraces)
        // The flat channel is one line: a single row of its band holds dots.
        let flat = layout.trace(band: 1)
        let rowsWithDots = (flat.row..<(flat.row + flat.height)).filter { row in
            (flat.column..<(flat.column + flat.width)).contains { Self.isBraille(screen[row: row, column: $0].character) }
        }
        #expect(rowsWithDots.count == 1)
    }

    @Test("Channel 1's tallest spectrum bars are at 10 and 50 Hz, and the axis labels them")
    func spectrumPeaks() throws {
        let (screen, layout) = drawn()
        let cells = layout.spectrum(band: 0)
        #expect(cells.width == 30)
        let top = try #require(SpectrumBars.top(sampleRate: Self.rate))
        let heights = (0..<cells.width).map {
            Self.barEighths(screen, column: cells.column + $0, rows: cells.row..<(cells.row + cells.height))
        }
        let tallest = try #require(heights.max())
        #expect(tallest == cells.height * 8)
        let alpha = SpectrumBars.cell(of: 10, cells: cells.width, upTo: top)
        let mains = SpectrumBars.cell(of: 50, cells: cells.width, upTo: top)
        // The 10 Hz sine has twice the amplitude of the 50 Hz one: 6 dB more, the tallest bar.
        #expect(heights[(alpha - 1)...(alpha + 1)].max() == tallest)
        let mainsPeak = try #require(heights[(mains - 1)...(mains + 1)].max())
        #expect(mainsPeak > tallest * 3 / 4)
        for (cell, height) in heights.enumerated() where abs(cell - alpha) > 2 && abs(cell - mains) > 2 {
            #expect(height < tallest / 2, "a bar at cell \(cell) is as tall as a peak")
        }
        // Frequency axis: "10" and "50" start at their cells, "Hz" ends the row.
        let axis = Self.text(screen, row: try #require(layout.axisRow))
        let spectrumAxis = String(axis.unicodeScalars.dropFirst(cells.column))
        #expect(spectrumAxis.hasSuffix("Hz"))
        #expect(String(spectrumAxis.unicodeScalars.dropFirst(alpha).prefix(2)) == "10")
        #expect(String(spectrumAxis.unicodeScalars.dropFirst(mains).prefix(2)) == "50")
        // The flat channel has no spectrum to show and says so.
        let flat = layout.spectrum(band: 1)
        #expect(Self.characters(screen, in: flat).allSatisfy { !SpectrumBars.blocks.contains($0) })
        #expect(Self.text(screen, row: flat.row + flat.height - 1).contains("no spectrum"))
    }

    @Test("The quality bars and figures are green, yellow and red by the noise-to-signal ratio")
    func qualityColours() {
        let (screen, layout) = drawn()
        let expected: [(SignalQualityLevel, String, Int)] = [(.good, "0.30", 4), (.fair, "0.80", 3), (.bad, "1.60", 1)]
        for (band, (level, figure, filled)) in expected.enumerated() {
            let info = layout.info(band: band)
            let bar = (0..<SignalView.barWidth).map { screen[row: info.row, column: info.column + 9 + $0] }
            #expect(bar.filter { $0.character == "█" }.count == filled)
            #expect(bar.filter { $0.character == "█" }.allSatisfy { $0.foreground == level.color })
            #expect(Self.text(screen, row: info.row).contains(figure))
            let figureStart = info.column + 10 + SignalView.barWidth
            #expect(screen[row: info.row, column: figureStart].foreground == level.color)
        }
        #expect(Self.text(screen, row: layout.info(band: 1).row + 1).hasPrefix(" flat"))
    }

    @Test("Quality levels: ≤ 0.5 good, ≤ 1 fair, above bad, nil and NaN unknown", arguments: [
        (0.0, SignalQualityLevel.good), (0.5, .good), (0.51, .fair), (1.0, .fair), (1.01, .bad), (.infinity, .bad),
        (.nan, .unknown),
    ] as [(Double, SignalQualityLevel)])
    func qualityLevels(ratio: Double, level: SignalQualityLevel) {
        #expect(SignalQualityLevel(noiseToSignal: ratio) == level)
        #expect(SignalQualityLevel(noiseToSignal: nil) == .unknown)
    }

    @Test("Non-finite samples are gaps and flag their channel; no cell ever reads nan or inf")
    func nonFinite() {
        var snapshot = Self.snapshot()
        let (screen, layout) = drawn(snapshot)
        // Samples 500…624 of 1,250 are NaN: 10 % of the trace, about five cells, are empty from top to bottom.
        let trace = layout.trace(band: 2)
        let emptyColumns = (trace.column..<(trace.column + trace.width)).filter { column in
            (trace.row..<(trace.row + trace.height)).allSatisfy { !Self.isBraille(screen[row: $0, column: column].character) }
        }
        #expect((4...6).contains(emptyColumns.count))
        #expect(emptyColumns.count == emptyColumns.last! - emptyColumns.first! + 1)
        let info = layout.info(band: 2)
        #expect(screen[row: info.row, column: info.column + 7].character == "!")
        #expect(Self.text(screen, row: info.row + 1).hasPrefix(" not finite"))
        #expect(screen[row: layout.info(band: 0).row, column: 7].character == " ")   // the good channel is not flagged

        // Worse: NaN quality, infinite quality, a NaN rate, a channel of only infinities, an escape in a name.
        snapshot.channels[0].quality = .nan
        snapshot.channels[1].quality = .infinity
        snapshot.channels[2].samples = [Double](repeating: -.infinity, count: 1_250)
        snapshot.channels[2].name = "O\u{1B}[2J"
        for rate in [Self.rate, .nan, 0, .infinity] {
            snapshot.sampleRate = rate
            SignalView().draw(snapshot, on: screen, in: area)
            let all = (0..<24).map { Self.text(screen, row: $0) }.joined(separator: "\n").lowercased()
            #expect(!all.contains("nan") && !all.contains("inf"), "rate \(rate)")
            #expect(!all.unicodeScalars.contains("\u{1B}"))
        }
        #expect(Self.text(screen, row: layout.info(band: 0).row).contains("   ?"))
        #expect(Self.text(screen, row: layout.info(band: 1).row).contains(" ≥10"))
    }

    @Test("+ and - step the µV per band and change the trace; a brings the automatic scale back")
    func zoomKeys() {
        let screen = Self.screen()
        let view = SignalView()
        let snapshot = Self.snapshot()
        let trace = SignalViewLayout(rect: area, channels: 3).trace(band: 0)
        func drawn() -> [Unicode.Scalar] {
            view.draw(snapshot, on: screen, in: area)
            return Self.characters(screen, in: trace)
        }
        let automatic = drawn()
        #expect(view.isAutoScaling)
        #expect(view.microvoltsPerBand == 100)   // the median channel swings about 55 µV
        #expect(Self.text(screen, row: 0).contains("100 µV per band (auto)"))
        #expect(view.handle(key: UInt8(ascii: "+")))
        #expect(view.microvoltsPerBand == 50 && !view.isAutoScaling)
        let zoomedIn = drawn()
        #expect(zoomedIn != automatic)
        #expect(Self.text(screen, row: 0).contains("50 µV per band "))
        // Taller: the trace covers more rows of its band.
        func rowsUsed(_ cells: [Unicode.Scalar]) -> Int {
            (0..<trace.height).filter { row in (0..<trace.width).contains { Self.isBraille(cells[row * trace.width + $0]) } }.count
        }
        #expect(rowsUsed(zoomedIn) > rowsUsed(automatic))
        #expect(view.handle(key: UInt8(ascii: "-")) && view.handle(key: UInt8(ascii: "-")))
        #expect(view.microvoltsPerBand == 200)
        #expect(rowsUsed(drawn()) < rowsUsed(automatic))
        #expect(view.handle(key: UInt8(ascii: "a")))
        #expect(view.isAutoScaling && view.microvoltsPerBand == 100)
        #expect(drawn() == automatic)
        #expect(!view.handle(key: UInt8(ascii: "x")))
        for _ in 0..<40 { view.handle(key: UInt8(ascii: "+")) }
        #expect(view.microvoltsPerBand == 1)
        _ = drawn()
    }

    @Test("Any rectangle, down to none, draws without a crash and touches no cell outside it")
    func smallRectangles() {
        let snapshot = Self.snapshot()
        let sentinel = TerminalCell(character: "#", foreground: .white, background: .black)
        for width in [0, 1, 2, 3, 5, 8, 13, 14, 20, 43, 44, 63, 64] {
            for height in [0, 1, 2, 3, 4, 5, 6] {
                let screen = Self.screen(70, 8)
                screen.clear(to: sentinel)
                let rect = CellRect(row: 1, column: 2, width: width, height: height)
                SignalView().draw(snapshot, on: screen, in: rect)
                SignalView().draw(.empty, on: screen, in: rect)
                for row in 0..<8 {
                    for column in 0..<70 {
                        let inside = row >= 1 && row < 1 + height && column >= 2 && column < 2 + width
                        if !inside { #expect(screen[row: row, column: column] == sentinel, "\(width)×\(height)") }
                    }
                }
            }
        }
        // Partly or wholly off the screen, and on a screen of no cells.
        let screen = Self.screen(10, 4)
        for rect in [CellRect(row: -3, column: -5, width: 30, height: 9), CellRect(row: 2, column: 8, width: 100, height: 100),
                     CellRect(row: 50, column: 50, width: 5, height: 5)] {
            SignalView().draw(snapshot, on: screen, in: rect)
        }
        SignalView().draw(snapshot, on: Self.screen(0, 0), in: CellRect(row: 0, column: 0, width: 0, height: 0))
    }

    @Test("Narrow views drop the spectrum, then the full information column; low ones the title and axis rows")
    func degrades() {
        let screen = Self.screen()
        SignalView().draw(Self.snapshot(), on: screen, in: CellRect(row: 0, column: 0, width: 50, height: 24))
        let narrow = SignalViewLayout(rect: CellRect(row: 0, column: 0, width: 50, height: 24), channels: 3)
        #expect(narrow.spectrumColumns.isEmpty && narrow.infoColumns.count == SignalViewLayout.infoWidth)
        let drawn = Self.characters(screen, in: CellRect(row: 0, column: narrow.traceColumns.lowerBound,
                                                          width: narrow.traceColumns.count, height: 24))
        #expect(narrow.traceColumns.upperBound == 50)
        #expect(!drawn.contains { SpectrumBars.blocks.contains($0) })
        #expect(drawn.contains(where: Self.isBraille))
        let compact = SignalViewLayout(rect: CellRect(row: 0, column: 0, width: 30, height: 3), channels: 3)
        #expect(compact.isCompact && compact.titleRow == nil && compact.axisRow == nil && compact.bands.count == 3)
        let crowded = SignalViewLayout(rect: CellRect(row: 0, column: 0, width: 10, height: 2), channels: 3)
        #expect(crowded.infoColumns.isEmpty && crowded.bands.count == 2)
    }

    @Test("An empty snapshot reads \"waiting for signal\"")
    func waiting() {
        let screen = Self.screen(40, 5)
        SignalView().draw(.empty, on: screen, in: CellRect(row: 0, column: 0, width: 40, height: 5))
        #expect(Self.text(screen, row: 2).contains("waiting for signal"))
        let noSamples = SignalSnapshot(sampleRate: 250, channels: [.init(name: "Cz", samples: [])])
        SignalView().draw(noSamples, on: screen, in: CellRect(row: 0, column: 0, width: 40, height: 5))
        #expect(Self.text(screen, row: 2).contains("waiting for signal"))
    }

    @Test("The spectra are recomputed only when the snapshot changes, at most once every spectrumInterval frames")
    func spectrumCache() throws {
        let screen = Self.screen()
        let view = SignalView(spectrumInterval: 5)
        let spectrum = SignalViewLayout(rect: area, channels: 3).spectrum(band: 0)
        func bars() -> [Unicode.Scalar] { Self.characters(screen, in: spectrum) }
        view.draw(Self.snapshot(), on: screen, in: area)
        let before = bars()
        // A snapshot with a different spectrum on channel 1: a 30 Hz sine only.
        var changed = Self.snapshot()
        changed.sampleCount += 25
        changed.channels[0].samples = (0..<1_250).map { 20 * sin(2 * .pi * 30 * Double($0) / Self.rate) }
        for _ in 0..<4 {
            view.draw(changed, on: screen, in: area)
            #expect(bars() == before)
        }
        view.draw(changed, on: screen, in: area)   // five frames after the spectra were made
        #expect(bars() != before)
    }

    @Test("The scene draws its header, the view and the keys; the view's keys change its scale, others go on")
    func scene() {
        let screen = Self.screen()
        var others: [UInt8] = []
        let scene = SignalViewScene(snapshot: { Self.snapshot() })
        scene.onKey = { others.append($0) }
        scene.draw(on: screen, missedFrames: 2)
        let header = Self.text(screen, row: 0)
        #expect(header.contains("Signal check │ 3 channels at 250 Hz │ 1 good 1 fair 1 bad │ missed 2"))
        #expect(Self.text(screen, row: 23).contains("+/- zoom"))
        #expect(Self.characters(screen, in: scene.viewRect(in: screen.size)).contains(where: Self.isBraille))
        scene.handle(key: UInt8(ascii: "-"))
        scene.handle(key: UInt8(ascii: "s"))
        #expect(scene.view.microvoltsPerBand == 200 && others == [UInt8(ascii: "s")])
        let empty = SignalViewScene(snapshot: { .empty })
        empty.draw(on: screen, missedFrames: 0)
        #expect(Self.text(screen, row: 0).contains("Signal check │ no signal yet"))
        #expect((0..<24).contains { Self.text(screen, row: $0).contains("waiting for signal") })
    }
}
