/// Why a full-screen terminal session cannot start or went wrong; each
/// description is one line naming the reason.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (redirected or piped).
    case notATerminal(stream: String)
    /// `TERM` is not set, so nothing says what the terminal understands.
    case noTermVariable
    /// `TERM=dumb`: no cursor movement and no colours.
    case dumbTerminal
    /// The terminal reports neither 24-bit colour (`COLORTERM`) nor 256 colours (`TERM`).
    case tooFewColors(term: String)
    /// Another ``TerminalSession`` is already open in this process.
    case sessionAlreadyOpen
    /// A system call failed, with its errno.
    case systemCall(name: String, errno: Int32)

    /// The reason, in one line.
    public var description: String {
        switch self {
        case .notATerminal(let stream):
            return "standard \(stream) is not a terminal; run it in a terminal"
        case .noTermVariable:
            return "TERM is not set, so the terminal's abilities are unknown; set TERM (e.g. TERM=xterm-256color)"
        case .dumbTerminal:
            return "TERM=dumb: this terminal cannot move the cursor or show colours; use a full terminal emulator"
        case .tooFewColors(let term):
            return "TERM=\(term) reports neither 24-bit colour (COLORTERM=truecolor) nor 256 colours (TERM=…-256color)"
        case .sessionAlreadyOpen:
            return "a terminal session is already open in this process"
        case .systemCall(let name, let errno):
            return "\(name) failed (errno \(errno))"
        }
    }
}
