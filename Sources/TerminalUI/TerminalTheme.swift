/// The colours every full-screen view shares, so that the button board, the
/// signal view, the developer panel and the demo look like one program:
/// one dark background, one text colour, one dim colour for secondary text,
/// and the green / yellow / red of good, warning and refused.
public enum TerminalTheme {
    /// Screen background.
    public static let background = TerminalRGB(red: 12, green: 14, blue: 20)
    /// Ordinary text.
    public static let text = TerminalRGB(red: 205, green: 210, blue: 220)
    /// Secondary text: labels, units, separators.
    public static let dim = TerminalRGB(red: 120, green: 130, blue: 150)
    /// Highlighted information (what happens now).
    public static let accent = TerminalRGB(red: 110, green: 200, blue: 255)
    /// Something went right (a value applied, the text sent).
    public static let good = TerminalRGB(red: 85, green: 205, blue: 105)
    /// Needs attention (paused, a notice).
    public static let warning = TerminalRGB(red: 235, green: 190, blue: 65)
    /// Refused or bad.
    public static let refused = TerminalRGB(red: 240, green: 80, blue: 80)
    /// A box drawn over the content (results, popups).
    public static let boxBackground = TerminalRGB(red: 32, green: 40, blue: 60)
}
