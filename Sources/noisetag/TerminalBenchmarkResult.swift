/// One row of `noisetag bench terminal`: a control count and a change
/// pattern, with frame cost and size.
struct TerminalBenchmarkResult: Encodable {
    /// Buttons on screen.
    let controls: Int
    /// Which cells change each frame: all, none, or flicker (the engine's codes).
    let pattern: String
    /// Screen size, columns × rows.
    let columns: Int
    let rows: Int
    /// Mean cells changed per frame.
    let changedCells: Double
    /// Mean bytes written per frame.
    let bytesPerFrame: Double
    /// Mean UTF-8 bytes of the changed cells' characters: the floor any encoding needs.
    let floorBytesPerFrame: Double
    /// Draw (header, buttons, footer) plus encoding, nanoseconds.
    let render: LatencySummary
    /// The frame's write(2), nanoseconds.
    let write: LatencySummary
}
