import NoiseTagging

/// Places plain ``NoiseTagButton``s on a ``TerminalScreen`` and draws them
/// from their own state each frame.
///
/// A button's ``NoiseTagButton/frame`` is in cells (x = column, y = row);
/// the layout centres the bounding box of all frames in the region it is
/// given. Each frame a button is a block in its colour — its press
/// feedback colour, else its flicker colour, else the resting colour of an
/// enabled or disabled control — with its label centred on the middle row
/// in black or white, whichever contrasts more with the block. Hidden
/// buttons are not drawn. The engine paints plain buttons through a frame
/// it shares with them, so drawing reads their colour, it never needs a
/// subclass.
///
/// ```swift
/// let layout = ButtonLayout(buttons: grid.buttons)
/// let palette = StimulusPalette(settings: controller.settings)
/// layout.draw(on: screen, in: CellRect(row: 1, column: 0, width: 80, height: 22), palette: palette)
/// ```
public struct ButtonLayout {
    /// The buttons, in drawing order.
    public let buttons: [NoiseTagButton]
    /// Columns and rows the buttons' frames span (from cell 0, 0).
    public let contentSize: TerminalSize

    /// Creates a layout of `buttons`.
    ///
    /// ```swift
    /// let layout = ButtonLayout(buttons: [yes, no])
    /// ```
    public init(buttons: [NoiseTagButton]) {
        self.buttons = buttons
        var columns = 0, rows = 0
        for button in buttons {
            let rect = Self.cells(of: button.frame)
            columns = max(columns, rect.column + rect.width)
            rows = max(rows, rect.row + rect.height)
        }
        contentSize = TerminalSize(columns: columns, rows: rows)
    }

    /// The cells a frame covers, from cell 0, 0 (edges rounded down, at
    /// least one cell; coordinates beyond ±10,000 cells or not finite are
    /// clamped, NaN as 0).
    ///
    /// ```swift
    /// ButtonLayout.cells(of: NoiseTagRect(x: 9, y: 4, width: 8, height: 3))   // row 4, column 9, 8×3
    /// ```
    public static func cells(of frame: NoiseTagRect) -> CellRect {
        func cell(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            guard !value.isNaN else { return 0 }
            return Int(min(max(value, -10_000), 10_000).rounded(rule))
        }
        return CellRect(row: cell(frame.y, .down), column: cell(frame.x, .down),
                        width: max(1, cell(frame.width, .toNearestOrAwayFromZero)),
                        height: max(1, cell(frame.height, .toNearestOrAwayFromZero)))
    }

    /// Where the content's top-left cell goes when centred in `region`.
    ///
    /// ```swift
    /// let origin = layout.origin(in: CellRect(row: 1, column: 0, width: 80, height: 22))
    /// ```
    public func origin(in region: CellRect) -> (row: Int, column: Int) {
        (region.row + max(0, (region.height - contentSize.rows) / 2),
         region.column + max(0, (region.width - contentSize.columns) / 2))
    }

    /// The screen cells of `button` when the layout is centred in `region`.
    ///
    /// ```swift
    /// let rect = layout.screenRect(of: yes, in: region)
    /// ```
    public func screenRect(of button: NoiseTagButton, in region: CellRect) -> CellRect {
        let origin = origin(in: region)
        var rect = Self.cells(of: button.frame)
        rect.row += origin.row
        rect.column += origin.column
        return rect
    }

    /// The colour a button shows now: feedback, else flicker, else its resting colour.
    ///
    /// ```swift
    /// let color = ButtonLayout.color(of: yes, palette: palette)
    /// ```
    @inline(__always)
    public static func color(of button: NoiseTagButton, palette: StimulusPalette) -> TerminalRGB {
        if let feedback = button.feedbackColor { return TerminalRGB(feedback) }
        if let flicker = button.flickerColor { return TerminalRGB(flicker) }
        return TerminalRGB(button.noiseTagging.enabled ? palette.enabled : palette.disabled)
    }

    /// Draws every visible button, centred in `region`, in its current colour with its label.
    ///
    /// ```swift
    /// layout.draw(on: screen, in: region, palette: StimulusPalette(settings: controller.settings))
    /// ```
    public func draw(on screen: TerminalScreen, in region: CellRect, palette: StimulusPalette) {
        let origin = origin(in: region)
        for button in buttons where !button.isHiddenOrInHiddenContainer {
            var rect = Self.cells(of: button.frame)
            rect.row += origin.row
            rect.column += origin.column
            let block = Self.color(of: button, palette: palette)
            let text = block.contrastingText
            screen.fill(rect, with: block, foreground: text)
            let label = button.label
            guard !label.isEmpty else { continue }
            let length = min(label.unicodeScalars.count, rect.width)
            let column = rect.column + (rect.width - length) / 2
            screen.write(label, row: rect.center.row, column: column, foreground: text, background: block, maxWidth: length)
        }
    }
}
