import Decoding

/// The signal check screen: a header line ("Signal check", the channels
/// and their rate, how many are good, fair and bad), a ``SignalView`` of the
/// latest snapshot, and the keys on the last row. The view's keys (`+`,
/// `-`, `a`) are answered here; others go to ``onKey``.
///
/// ```swift
/// let scene = SignalViewScene(snapshot: { decoder.latestSignal() },
///                             footer: TerminalFooter(keys: [("+/-", "zoom"), ("a", "auto scale"),
///                                                           ("s", "buttons"), ("q", "quit")]))
/// scene.onKey = { key in if key == UInt8(ascii: "s") { showButtons() } }
/// let code = runner.run(scene)
/// ```
public final class SignalViewScene: TerminalScene {
    /// The panel drawn under the header.
    public let view: SignalView
    /// Where each frame's snapshot comes from; called once per frame.
    public var snapshot: () -> SignalSnapshot
    /// The keys line.
    public var footer: TerminalFooter
    /// Keys the view does not use.
    public var onKey: (UInt8) -> Void = { _ in }

    /// Creates the scene over a snapshot source.
    public init(snapshot: @escaping () -> SignalSnapshot, view: SignalView = SignalView(),
                footer: TerminalFooter = TerminalFooter(keys: [("+/-", "zoom"), ("a", "auto scale"), ("q", "quit")])) {
        self.snapshot = snapshot
        self.view = view
        self.footer = footer
    }

    /// Header, footer and at least a row and a dozen columns of signal.
    public var minimumSize: TerminalSize { TerminalSize(columns: 12, rows: 3) }

    /// The rows between the header and the footer.
    public func viewRect(in size: TerminalSize) -> CellRect {
        CellRect(row: 1, column: 0, width: size.columns, height: size.rows - 2)
    }

    /// Draws header, view and footer (the runner calls it each frame).
    public func draw(on screen: TerminalScreen, missedFrames: Int) {
        let latest = snapshot()
        screen.clear(to: TerminalCell(character: " ", foreground: SignalView.text, background: SignalView.background))
        drawHeader(latest, missedFrames: missedFrames, on: screen)
        view.draw(latest, on: screen, in: viewRect(in: screen.size))
        footer.draw(on: screen, row: screen.size.rows - 1)
    }

    /// `+`, `-`, `a` change the view's scale; other keys go to ``onKey``.
    public func handle(key: UInt8) {
        if !view.handle(key: key) { onKey(key) }
    }

    private func drawHeader(_ latest: SignalSnapshot, missedFrames: Int, on screen: TerminalScreen) {
        let fg = TerminalHeader.foreground
        var line = TerminalHeaderLine(screen: screen, row: 0)
        func text(_ s: String, _ color: TerminalRGB = fg) { line.text(s, color) }
        func separator() { line.separator() }
        text("Signal check")
        separator()
        if latest.isEmpty {
            text("no signal yet", TerminalHeader.dim)
        } else {
            let rate = latest.sampleRate.isFinite && latest.sampleRate > 0 ? "\(Int(latest.sampleRate.rounded())) Hz" : "? Hz"
            text("\(latest.channels.count) channels at " + rate)
            separator()
            let levels = latest.channels.map { SignalQualityLevel(noiseToSignal: $0.quality) }
            let counts: [(SignalQualityLevel, String)] = [(.good, "good"), (.fair, "fair"), (.bad, "bad"), (.unknown, "unknown")]
            for (k, (level, name)) in counts.enumerated() {
                let count = levels.filter { $0 == level }.count
                guard level != .unknown || count > 0 else { continue }
                text((k > 0 ? " " : "") + "\(count) " + name, level.color)
            }
        }
        separator()
        text("missed \(missedFrames)", missedFrames > 0 ? TerminalHeader.below : fg)
    }
}
