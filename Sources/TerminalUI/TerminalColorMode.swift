/// How the screen writes colours: 24-bit (`38;2;r;g;b`) or the xterm
/// 256-colour palette (`38;5;n`) as a fallback.
public enum TerminalColorMode: String, Sendable, Equatable {
    /// 24-bit colour.
    case trueColor
    /// The nearest entries of the xterm 256-colour palette (``XTerm256``).
    case palette256

    /// Reads what the terminal supports from its environment:
    /// `COLORTERM=truecolor` or `24bit` gives ``trueColor``; otherwise a
    /// `TERM` containing `256color` gives ``palette256``. Throws, naming the
    /// reason, when the output is not a terminal, `TERM` is unset or `dumb`,
    /// or neither holds.
    public static func detect(environment: [String: String], isTerminal: Bool) throws(TerminalError) -> TerminalColorMode {
        guard isTerminal else { throw .notATerminal(stream: "output") }
        guard let term = environment["TERM"], !term.isEmpty else { throw .noTermVariable }
        guard term != "dumb" else { throw .dumbTerminal }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if term.contains("256color") { return .palette256 }
        throw .tooFewColors(term: term)
    }

    /// The colour this mode actually shows for `color`: itself in 24-bit
    /// mode, the nearest palette entry's RGB in 256-colour mode.
    @inline(__always)
    public func shown(_ color: TerminalRGB) -> TerminalRGB {
        switch self {
        case .trueColor: return color
        case .palette256: return XTerm256.color(at: XTerm256.index(nearest: color))
        }
    }
}
