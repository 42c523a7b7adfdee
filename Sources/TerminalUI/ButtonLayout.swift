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
/// The engine's render hints (`noiseTagging.renderHints`, set while a
/// button flickers) change the look:
///
/// - `flickersOnlyBorder` (`labeledButtonsOnlyPartlyFlicker` on a labelled
///   button): only the border flickers — the outer ring of cells, or the
///   left and right columns of a button one or two rows high — while the
///   interior keeps the resting colour (`noiseTagging.defaultColor`) with
///   the label readable on it. A button narrower than three columns
///   flickers whole. Feedback colours still fill the whole block.
/// - `showsObjectID` (`showNoiseTagIDsOnControls`): the object ID, "#12",
///   in the top-left corner in the colour contrasting with each cell under
///   it; on a narrow button the "#" is dropped, then the last digits.
///
/// Given the `clickFeedbackMode` setting, ``ClickFeedbackMode/redBorder``
/// feedback (the pressed button's feedback colour is red) is drawn as a
/// red border around the button's normal look; the other modes' feedback
/// colours fill the whole block.
///
/// ```swift
/// let layout = ButtonLayout(buttons: grid.buttons)
/// let palette = StimulusPalette(settings: controller.settings)
/// let mode = ClickFeedbackMode(rawValue: controller.settings.textFor(.clickFeedbackMode))
/// layout.draw(on: screen, in: CellRect(row: 1, column: 0, width: 80, height: 22), palette: palette, feedbackMode: mode)
/// ```
public struct ButtonLayout {
    /// The buttons, in drawing order.
    public let buttons: [NoiseTagButton]
    /// Columns and rows the buttons' frames span (from cell 0, 0).
    public let contentSize: TerminalSize

    /// Creates a layout of `buttons`.
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
    public func origin(in region: CellRect) -> (row: Int, column: Int) {
        (region.row + max(0, (region.height - contentSize.rows) / 2),
         region.column + max(0, (region.width - contentSize.columns) / 2))
    }

    /// The screen cells of `button` when the layout is centred in `region`.
    public func screenRect(of button: NoiseTagButton, in region: CellRect) -> CellRect {
        let origin = origin(in: region)
        var rect = Self.cells(of: button.frame)
        rect.row += origin.row
        rect.column += origin.column
        return rect
    }

    /// The colour a button shows now: feedback, else flicker, else its resting colour.
    @inline(__always)
    public static func color(of button: NoiseTagButton, palette: StimulusPalette) -> TerminalRGB {
        if let feedback = button.feedbackColor { return TerminalRGB(feedback) }
        if let flicker = button.flickerColor { return TerminalRGB(flicker) }
        return TerminalRGB(button.noiseTagging.enabled ? palette.enabled : palette.disabled)
    }

    /// Draws every visible button, centred in `region`, in its current
    /// colour with its label, following the engine's render hints and the
    /// press-feedback mode.
    ///
    /// - A button whose `noiseTagging.renderHints.flickersOnlyBorder` is set
    ///   and that flickers keeps its interior in its resting colour
    ///   (`noiseTagging.defaultColor`) with the label in the contrasting
    ///   colour; only its border takes the flicker colour.
    /// - With `renderHints.showsObjectID` and an `objectID`, the ID ("#12")
    ///   goes in the top-left corner in the colour contrasting with the cell
    ///   under each character; on a button too narrow for "#12" the "#" is
    ///   dropped, then the last digits.
    /// - `feedbackMode` is the `clickFeedbackMode` setting: with
    ///   ``ClickFeedbackMode/redBorder`` a button whose feedback colour is
    ///   red gets a red border around its normal look. Any other feedback
    ///   colour (and every feedback colour when `feedbackMode` is nil or
    ///   another mode) fills the whole block.
    ///
    /// The border is the outer ring of cells; a button of one or two rows
    /// has its left and right columns as border. A button narrower than
    /// three columns has no room for a border: it is filled whole in the
    /// border's colour. Where there is a border the label is centred
    /// between the border columns. Drawing allocates nothing per button.
    public func draw(on screen: TerminalScreen, in region: CellRect, palette: StimulusPalette,
                     feedbackMode: ClickFeedbackMode? = nil) {
        let origin = origin(in: region)
        let redBorders = feedbackMode == .redBorder
        for button in buttons where !button.isHiddenOrInHiddenContainer {
            var rect = Self.cells(of: button.frame)
            rect.row += origin.row
            rect.column += origin.column
            let hints = button.noiseTagging.renderHints
            // The border's colour, when the button shows one, and the colour inside it.
            let ring: TerminalRGB?
            let interior: TerminalRGB
            if let feedback = button.feedbackColor {
                if redBorders && feedback == .red {
                    ring = TerminalRGB(feedback)
                    interior = Self.unpressedColor(of: button, palette: palette)
                } else {
                    ring = nil
                    interior = TerminalRGB(feedback)
                }
            } else if let flicker = button.flickerColor {
                if hints.flickersOnlyBorder {
                    ring = TerminalRGB(flicker)
                    interior = TerminalRGB(button.noiseTagging.defaultColor)
                } else {
                    ring = nil
                    interior = TerminalRGB(flicker)
                }
            } else {
                ring = nil
                interior = TerminalRGB(button.noiseTagging.enabled ? palette.enabled : palette.disabled)
            }
            let label = button.label
            if let ring, rect.width >= 3 {
                let text = interior.contrastingText
                screen.fill(rect, with: ring, foreground: text)
                let inside = rect.height >= 3
                    ? CellRect(row: rect.row + 1, column: rect.column + 1, width: rect.width - 2, height: rect.height - 2)
                    : CellRect(row: rect.row, column: rect.column + 1, width: rect.width - 2, height: rect.height)
                screen.fill(inside, with: interior, foreground: text)
                Self.drawLabel(label, on: screen, row: rect.center.row, in: inside, text: text, background: interior)
                if hints.showsObjectID, let id = hints.objectID {
                    Self.drawObjectID(id, on: screen, row: rect.row, column: rect.column, width: rect.width,
                                      ring: ring, interior: interior, ringsWholeTopRow: rect.height >= 3)
                }
            } else {
                // No border (or no room for one): the whole block in one colour.
                let block = ring ?? interior
                let text = block.contrastingText
                screen.fill(rect, with: block, foreground: text)
                Self.drawLabel(label, on: screen, row: rect.center.row, in: rect, text: text, background: block)
                if hints.showsObjectID, let id = hints.objectID {
                    Self.drawObjectID(id, on: screen, row: rect.row, column: rect.column, width: rect.width,
                                      ring: block, interior: block, ringsWholeTopRow: true)
                }
            }
        }
    }

    /// The colour a button shows apart from press feedback: flicker, else its resting colour.
    @inline(__always)
    private static func unpressedColor(of button: NoiseTagButton, palette: StimulusPalette) -> TerminalRGB {
        if let flicker = button.flickerColor { return TerminalRGB(flicker) }
        return TerminalRGB(button.noiseTagging.enabled ? palette.enabled : palette.disabled)
    }

    /// Writes `label` centred on `row` within the columns of `area`, cut to its width.
    @inline(__always)
    private static func drawLabel(_ label: String, on screen: TerminalScreen, row: Int, in area: CellRect,
                                  text: TerminalRGB, background: TerminalRGB) {
        guard !label.isEmpty else { return }
        let length = min(label.unicodeScalars.count, area.width)
        let column = area.column + (area.width - length) / 2
        screen.write(label, row: row, column: column, foreground: text, background: background, maxWidth: length)
    }

    /// Writes an object ID as "#12" from `row`, `column` rightwards, in at
    /// most `width` cells: when "#12" does not fit the "#" is dropped, then
    /// the last digits. Each character is in the colour contrasting with the
    /// cell under it: the first and last columns are `ring`, the columns
    /// between are `ring` too when `ringsWholeTopRow`, else `interior`.
    /// No string is built.
    static func drawObjectID(_ id: Int, on screen: TerminalScreen, row: Int, column: Int, width: Int,
                             ring: TerminalRGB, interior: TerminalRGB, ringsWholeTopRow: Bool) {
        let magnitude = id.magnitude
        var digits = 1, scale: UInt = 1
        while magnitude / scale >= 10 { scale *= 10; digits += 1 }
        let sign = id < 0 ? 1 : 0
        let hash = digits + sign < width ? 1 : 0
        let length = min(width, hash + sign + digits)
        guard length > 0 else { return }
        let ringText = ring.contrastingText
        let interiorText = ringsWholeTopRow || ring == interior ? ringText : interior.contrastingText
        for k in 0..<length {
            let character: Unicode.Scalar
            if k < hash {
                character = "#"
            } else if k < hash + sign {
                character = "-"
            } else {
                var place = scale
                for _ in 0..<(k - hash - sign) { place /= 10 }
                character = Unicode.Scalar(UInt8(ascii: "0") + UInt8(magnitude / place % 10))
            }
            let onRing = ringsWholeTopRow || k == 0 || k == width - 1
            screen.put(character, row: row, column: column + k,
                       foreground: onRing ? ringText : interiorText, background: onRing ? ring : interior)
        }
    }
}
