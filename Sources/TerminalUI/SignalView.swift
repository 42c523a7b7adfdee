import Decoding

/// A biosignal scope panel in the manner of iScope: for each channel of a
/// ``SignalSnapshot`` a band of rows with its name and quality, a scrolling
/// trace in braille dots, and its power spectrum from 1 to 60 Hz.
///
/// Drawn as (72 × 5 cells, three channels of one row each):
/// ```text
///  channel  noise/sig  100 µV per band (auto)         log power (40 dB)
///  Cz      ████░ 0.30 ⡿⣷⣿⢿⣿⡿⣿⣿⢿⣷⣿⣿⣾⣿⣷⣿⢿⣾⡿⣿⣿⢿⣿⡿⣿⣾⣿⣷⣿⣿⣾   █▇            ▇▂
///  Pz      ███░░ 0.80 ⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤ no spectrum
///  Oz    ! █░░░░ 1.60 ⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠆  ⠰⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶⠶   █▇
///                      -5.0 s                     now 1  10 20 30  40 50
/// ```
///
/// - The quality bar is longer the better the noise-to-signal ratio (full
///   at 0, one cell from 2 up, empty when unknown) and coloured by
///   ``SignalQualityLevel``; the ratio is written after it, "?" when
///   unknown. The channel's reason, if any, is on the band's second row
///   when it has one.
/// - Every band spans the same number of µV (shown in the title row),
///   centred on each channel's mean. The scale follows the signal (the
///   2nd–98th percentile swing of the median channel) until `+` or `-`
///   zooms; `a` makes it follow again. See ``handle(key:)``.
/// - A sample that is not finite is a gap in the trace, and its channel is
///   flagged with a red "!" (and the reason "not finite" when none is given).
/// - The spectra are recomputed only when the snapshot has changed and at
///   most once every ``spectrumInterval`` frames.
/// - Narrow rectangles drop the spectrum, then shorten the information
///   column to a name and a colour cell, then leave it out; low ones drop
///   the title and axis rows, then channels that get no row. A rectangle
///   of no cells draws nothing. An empty snapshot reads "waiting for signal".
///
/// The view belongs to the thread that draws, like the screen.
///
/// ```swift
/// let view = SignalView()
/// // each frame:
/// view.draw(latestSnapshot(), on: screen, in: CellRect(row: 1, column: 0, width: 100, height: 22))
/// // on a key:
/// if !view.handle(key: byte) { otherKeys(byte) }
/// ```
public final class SignalView {
    /// Frames between two computations of the spectra, at most.
    public let spectrumInterval: Int

    private var scale = SignalScale()
    /// Fingerprint of the snapshot the spectra were computed from.
    private var spectrumKey: Int?
    private var spectra: [Spectrum?] = []
    /// The spectra as bar heights, for ``barsShape``.
    private var bars: [[Double]?] = []
    /// The cells and top frequency ``bars`` were made for; nil when they are stale.
    private var barsShape: BarsShape?
    private var framesSinceSpectra = 0
    /// The swing the automatic scale last fitted, µV.
    private var typicalSwing = 0.0

    static let background = TerminalTheme.background
    static let alternateBackground = TerminalRGB(red: 20, green: 24, blue: 34)
    static let text = TerminalTheme.text
    static let dim = TerminalRGB(red: 110, green: 120, blue: 140)
    static let traceColor = TerminalRGB(red: 110, green: 210, blue: 240)
    static let spectrumColor = TerminalRGB(red: 170, green: 140, blue: 240)
    static let flagColor = SignalQualityLevel.bad.color
    static let waiting = "waiting for signal"

    /// A view with the automatic scale, recomputing spectra at most every
    /// `spectrumInterval` frames (15: four times a second at 60 Hz).
    public init(spectrumInterval: Int = 15) {
        self.spectrumInterval = max(1, spectrumInterval)
    }

    /// µV from the bottom of a channel's band to its top.
    public var microvoltsPerBand: Double { scale.microvoltsPerBand }

    /// True while the scale follows the signal (until `+` or `-`).
    public var isAutoScaling: Bool { scale.isAutomatic }

    /// `+` (or `=`) zooms in, `-` zooms out — each a 1-2-5 step of the µV
    /// per band, leaving the automatic scale — and `a` turns the automatic
    /// scale back on. Returns true for those keys, false for any other.
    @discardableResult
    public func handle(key: UInt8) -> Bool {
        switch key {
        case UInt8(ascii: "+"), UInt8(ascii: "="): scale.zoomIn()
        case UInt8(ascii: "-"): scale.zoomOut()
        case UInt8(ascii: "a"), UInt8(ascii: "A"):
            scale.automate()
            scale.fit(peakToPeak: typicalSwing)
        default: return false
        }
        return true
    }

    /// Draws `snapshot` into `rect` of `screen`, touching no cell outside it.
    public func draw(_ snapshot: SignalSnapshot, on screen: TerminalScreen, in rect: CellRect) {
        framesSinceSpectra = framesSinceSpectra == .max ? .max : framesSinceSpectra + 1
        guard rect.width > 0, rect.height > 0 else { return }
        screen.fill(rect, with: Self.background, foreground: Self.text)
        guard !snapshot.isEmpty else {
            let text = Self.waiting
            let column = rect.column + max(0, (rect.width - text.count) / 2)
            screen.write(text, row: rect.center.row, column: column, foreground: Self.dim,
                         background: Self.background, maxWidth: rect.column + rect.width - column)
            return
        }
        refreshSpectra(for: snapshot)
        let layout = SignalViewLayout(rect: rect, channels: snapshot.channels.count)
        let windowLength = snapshot.channels.map(\.samples.count).max() ?? 0
        for band in layout.bands.indices {
            let channel = snapshot.channels[band]
            let background = band % 2 == 0 ? Self.background : Self.alternateBackground
            screen.fill(layout.bands[band], with: background, foreground: Self.text)
            let gaps = drawTrace(of: channel, sampleCount: snapshot.sampleCount, windowLength: windowLength,
                                 on: screen, in: layout.trace(band: band), background: background)
            drawInfo(of: channel, flagged: gaps > 0, on: screen, in: layout.info(band: band),
                     compact: layout.isCompact, background: background)
            drawSpectrum(band, sampleRate: snapshot.sampleRate, on: screen, in: layout.spectrum(band: band),
                         background: background)
        }
        if let row = layout.titleRow { drawTitles(layout, row: row, on: screen) }
        if let row = layout.axisRow {
            drawAxes(layout, row: row, seconds: Double(windowLength) / snapshot.sampleRate,
                     top: SpectrumBars.top(sampleRate: snapshot.sampleRate), on: screen)
        }
    }

    // MARK: Spectra and the automatic scale

    /// Recomputes the spectra and the automatic scale when the snapshot
    /// changed and enough frames have passed (at once when the channels did).
    private func refreshSpectra(for snapshot: SignalSnapshot) {
        let key = Self.fingerprint(of: snapshot)
        guard key != spectrumKey else { return }
        guard spectra.count != snapshot.channels.count || framesSinceSpectra >= spectrumInterval else { return }
        spectrumKey = key
        framesSinceSpectra = 0
        spectra = snapshot.channels.map { SpectrumBars.spectrum(of: $0.samples, sampleRate: snapshot.sampleRate) }
        barsShape = nil
        let swings = snapshot.channels.map { ScopeTrace.peakToPeak(of: $0.samples) }.filter { $0 > 0 }.sorted()
        if !swings.isEmpty {
            typicalSwing = swings[swings.count / 2]
            scale.fit(peakToPeak: typicalSwing)
        }
    }

    /// Tells snapshots apart cheaply: rate, count, and each channel's length and end samples.
    private static func fingerprint(of snapshot: SignalSnapshot) -> Int {
        var hasher = Hasher()
        hasher.combine(snapshot.sampleRate.bitPattern)
        hasher.combine(snapshot.sampleCount)
        hasher.combine(snapshot.channels.count)
        for channel in snapshot.channels {
            hasher.combine(channel.samples.count)
            hasher.combine(channel.samples.first?.bitPattern)
            hasher.combine(channel.samples.last?.bitPattern)
        }
        return hasher.finalize()
    }

    // MARK: Bands

    /// The trace; returns the channel's samples that are not finite.
    private func drawTrace(of channel: SignalSnapshot.Channel, sampleCount: Int, windowLength: Int,
                           on screen: TerminalScreen, in cells: CellRect, background: TerminalRGB) -> Int {
        var canvas = BrailleCanvas(columns: cells.width, rows: cells.height)
        let samplesPerDot = Double(max(1, windowLength)) / Double(max(1, canvas.dotWidth))
        let trace = ScopeTrace(centre: ScopeTrace.centre(of: channel.samples), span: scale.microvoltsPerBand,
                               samplesPerDot: samplesPerDot)
        let gaps = trace.plot(channel.samples, endingAt: max(sampleCount, windowLength), on: &canvas)
        for row in 0..<canvas.rows {
            for column in 0..<canvas.columns {
                guard let character = canvas.character(row: row, column: column) else { continue }
                screen.put(character, row: cells.row + row, column: cells.column + column,
                           foreground: Self.traceColor, background: background)
            }
        }
        return gaps
    }

    /// Name, flag, quality bar and figure; the reason on the next row.
    private func drawInfo(of channel: SignalSnapshot.Channel, flagged: Bool, on screen: TerminalScreen,
                          in cells: CellRect, compact: Bool, background: TerminalRGB) {
        guard cells.width > 0 else { return }
        let level = SignalQualityLevel(noiseToSignal: channel.quality)
        let name = channel.name.singleCellText
        let row = cells.row, left = cells.column
        if compact {
            screen.write(name, row: row, column: left + 1, foreground: flagged ? Self.flagColor : Self.text,
                         background: background, maxWidth: 3)
            screen.put("█", row: row, column: left + 4, foreground: level.color, background: background)
            return
        }
        screen.write(name, row: row, column: left + 1, foreground: Self.text, background: background, maxWidth: 6)
        if flagged { screen.put("!", row: row, column: left + 7, foreground: Self.flagColor, background: background) }
        let filled = Self.barCells(quality: channel.quality)
        for cell in 0..<Self.barWidth {
            screen.put(cell < filled ? "█" : "░", row: row, column: left + 9 + cell,
                       foreground: cell < filled ? level.color : Self.dim, background: background)
        }
        screen.write(Self.figure(channel.quality), row: row, column: left + 10 + Self.barWidth,
                     foreground: level == .unknown ? Self.dim : level.color, background: background, maxWidth: 4)
        let reason = channel.reason ?? (flagged ? "not finite" : nil)
        if let reason, cells.height >= 2 {
            let color = flagged || level == .bad ? Self.flagColor : level == .fair ? level.color : Self.dim
            screen.write(reason.singleCellText, row: row + 1, column: left + 1, foreground: color,
                         background: background, maxWidth: cells.width - 2)
        }
    }

    /// Cells of the quality bar.
    static let barWidth = 5

    /// Filled cells of the quality bar: all at a ratio of 0, none from 2
    /// and for an unknown ratio, at least one otherwise.
    static func barCells(quality: Double?) -> Int {
        guard let quality, !quality.isNaN else { return 0 }
        let share = 1 - min(max(quality, 0), 2) / 2
        return max(1, Int((share * Double(barWidth)).rounded()))
    }

    /// The ratio in four cells: `0.32`, `≥10`, `?`.
    static func figure(_ quality: Double?) -> String {
        guard let quality, !quality.isNaN else { return "   ?" }
        return quality >= 9.995 ? " ≥10" : TerminalHeader.fixed(quality, 2)
    }

    /// The size of a row of spectrum bars.
    private struct BarsShape: Equatable {
        var cells: Int
        var top: Double
    }

    /// Channel `band`'s spectrum bars, bottom up ("no spectrum" when it has none).
    private func drawSpectrum(_ band: Int, sampleRate: Double, on screen: TerminalScreen, in cells: CellRect,
                              background: TerminalRGB) {
        guard cells.width > 0 else { return }
        var heights: [Double]?
        if let top = SpectrumBars.top(sampleRate: sampleRate) {
            let shape = BarsShape(cells: cells.width, top: top)
            if shape != barsShape {
                bars = spectra.map { $0.flatMap { SpectrumBars.heights(of: $0, cells: shape.cells, upTo: shape.top) } }
                barsShape = shape
            }
            heights = bars[band]
        }
        guard let heights else {
            screen.write("no spectrum", row: cells.row + cells.height - 1, column: cells.column, foreground: Self.dim,
                         background: background, maxWidth: cells.width)
            return
        }
        for (column, height) in heights.enumerated() {
            for row in 0..<cells.height {
                guard let block = SpectrumBars.character(height: height, rows: cells.height, row: row) else { break }
                screen.put(block, row: cells.row + cells.height - 1 - row, column: cells.column + column,
                           foreground: Self.spectrumColor, background: background)
            }
        }
    }

    // MARK: Title and axes

    private func drawTitles(_ layout: SignalViewLayout, row: Int, on screen: TerminalScreen) {
        let info = layout.infoColumns, trace = layout.traceColumns, spectrum = layout.spectrumColumns
        if info.count >= SignalViewLayout.infoWidth {
            screen.write(" channel  noise/sig", row: row, column: info.lowerBound, foreground: Self.dim,
                         background: Self.background, maxWidth: info.count)
        }
        let mode = scale.isAutomatic ? " (auto)" : ""
        screen.write(" " + Self.microvolts(scale.microvoltsPerBand) + " per band" + mode, row: row,
                     column: trace.lowerBound, foreground: Self.text, background: Self.background, maxWidth: trace.count)
        if !spectrum.isEmpty {
            screen.write("log power (\(Int(SpectrumBars.dynamicRange)) dB)", row: row, column: spectrum.lowerBound,
                         foreground: Self.dim, background: Self.background, maxWidth: spectrum.count)
        }
    }

    private func drawAxes(_ layout: SignalViewLayout, row: Int, seconds: Double, top: Double?,
                          on screen: TerminalScreen) {
        let trace = layout.traceColumns, spectrum = layout.spectrumColumns
        if seconds.isFinite, seconds > 0, trace.count >= 12 {
            screen.write(" -" + Self.fixed1(seconds) + " s", row: row, column: trace.lowerBound, foreground: Self.dim,
                         background: Self.background, maxWidth: trace.count)
            screen.write("now", row: row, column: trace.upperBound - 3, foreground: Self.dim,
                         background: Self.background, maxWidth: 3)
        }
        guard let top, spectrum.count >= 8 else { return }
        // Labels where their frequencies are, most telling first (alpha, mains, the ends, the unit),
        // each only where it keeps a blank cell from the others.
        var taken = [Bool](repeating: false, count: spectrum.count)
        let marks: [(label: String, column: Int)] = [10, 50, 1].map { mark in
            ("\(mark)", SpectrumBars.cell(of: Double(mark), cells: spectrum.count, upTo: top))
        } + [("Hz", spectrum.count - 2)] + [20, 30, 40, 60].map { mark in
            ("\(mark)", SpectrumBars.cell(of: Double(mark), cells: spectrum.count, upTo: top))
        }
        for (label, column) in marks where column + label.count <= spectrum.count {
            if label != "Hz", let mark = Double(label), mark > top { continue }
            let around = max(0, column - 1)..<min(spectrum.count, column + label.count + 1)
            guard !taken[around].contains(true) else { continue }
            for cell in column..<(column + label.count) { taken[cell] = true }
            screen.write(label, row: row, column: spectrum.lowerBound + column, foreground: Self.dim,
                         background: Self.background)
        }
    }

    /// `50 µV`, `2 mV`.
    static func microvolts(_ value: Double) -> String {
        value >= 1_000 ? "\(Int(value / 1_000)) mV" : "\(Int(value)) µV"
    }

    /// `4.8` style, for positive finite values.
    static func fixed1(_ value: Double) -> String {
        let tenths = Int((min(value, 99_999) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
