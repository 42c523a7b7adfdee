/// Where a ``SignalView`` puts things in its rectangle: a title row and an
/// axis row when there is room for them and a row per channel, one band
/// of rows per channel, and across each band an information column (name,
/// quality; compact when narrow, gone when very narrow), the trace, and
/// the spectrum (dropped when narrow).
struct SignalViewLayout: Equatable, Sendable {
    /// Width of the full information column.
    static let infoWidth = 20
    /// Width of the compact information column.
    static let compactInfoWidth = 6
    /// The narrowest rectangle with the full information column.
    static let fullInfoFrom = 44
    /// The narrowest rectangle with the compact information column.
    static let compactInfoFrom = 14
    /// The narrowest rectangle with a spectrum column.
    static let spectrumFrom = 64
    /// The widest spectrum column.
    static let spectrumMaximum = 30

    /// The rectangle laid out.
    let rect: CellRect
    /// The row of column titles, nil when left out.
    let titleRow: Int?
    /// The row of the time and frequency axes (under the last band), nil when left out.
    let axisRow: Int?
    /// One band per channel shown, top to bottom, each across the whole width.
    let bands: [CellRect]
    /// Columns of the information column (0 wide when left out).
    let infoColumns: Range<Int>
    /// Columns of the traces.
    let traceColumns: Range<Int>
    /// Columns of the spectra (empty when dropped).
    let spectrumColumns: Range<Int>

    /// True when the information column is the compact one.
    var isCompact: Bool { infoColumns.count == Self.compactInfoWidth }

    /// Lays out `channels` channels in `rect`. Channels that do not get a row are not shown.
    init(rect: CellRect, channels: Int) {
        self.rect = rect
        let width = rect.width, height = rect.height
        let withAxes = channels > 0 && height >= channels + 2
        titleRow = withAxes ? rect.row : nil
        let top = rect.row + (withAxes ? 1 : 0)
        let rows = height - (withAxes ? 2 : 0)
        let bandHeight = channels > 0 ? max(1, rows / channels) : 0
        let shown = bandHeight > 0 ? min(channels, rows / bandHeight) : 0
        bands = (0..<shown).map { CellRect(row: top + $0 * bandHeight, column: rect.column, width: width, height: bandHeight) }
        // Right under the last band; rows the bands cannot share out stay blank below it.
        axisRow = withAxes ? top + shown * bandHeight : nil
        let info = width >= Self.fullInfoFrom ? Self.infoWidth : width >= Self.compactInfoFrom ? Self.compactInfoWidth : 0
        let spectrum = width >= Self.spectrumFrom ? min(Self.spectrumMaximum, (width - info) * 2 / 5) : 0
        let left = rect.column
        infoColumns = left..<(left + info)
        let traceEnd = left + width - (spectrum > 0 ? spectrum + 1 : 0)
        traceColumns = (left + info)..<traceEnd
        spectrumColumns = spectrum > 0 ? (traceEnd + 1)..<(left + width) : traceEnd..<traceEnd
    }

    /// The information cells of band `band`.
    func info(band: Int) -> CellRect { cells(band: band, columns: infoColumns) }
    /// The trace cells of band `band`.
    func trace(band: Int) -> CellRect { cells(band: band, columns: traceColumns) }
    /// The spectrum cells of band `band`.
    func spectrum(band: Int) -> CellRect { cells(band: band, columns: spectrumColumns) }

    private func cells(band: Int, columns: Range<Int>) -> CellRect {
        CellRect(row: bands[band].row, column: columns.lowerBound, width: columns.count, height: bands[band].height)
    }
}
