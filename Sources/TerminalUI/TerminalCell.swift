/// One character cell: a single-width character and its colours.
public struct TerminalCell: Equatable, Sendable {
    /// The character shown; one Unicode scalar of display width 1.
    public var character: Unicode.Scalar
    /// Text colour.
    public var foreground: TerminalRGB
    /// Cell colour.
    public var background: TerminalRGB

    /// Creates a cell.
    @inline(__always)
    public init(character: Unicode.Scalar, foreground: TerminalRGB, background: TerminalRGB) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    /// A space on black with white text colour.
    public static let blank = TerminalCell(character: " ", foreground: .white, background: .black)
}
