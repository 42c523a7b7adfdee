#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals a ``SignalPipe`` catches: the three that end a program (or
/// a terminal session), the one that reports a new window size, and, for a
/// full-screen session alone, the two of job control.
public enum TerminalSignal: Int32, Sendable, CaseIterable {
    /// SIGINT (Ctrl-C when the terminal is not in raw mode, or `kill -INT`).
    case interrupt = 2
    /// SIGHUP: the terminal went away.
    case hangup = 1
    /// SIGTERM.
    case terminate = 15
    /// SIGWINCH: the window changed size.
    case windowChanged = 28
    /// SIGTSTP: a stop asked for (`kill -TSTP`; Ctrl-Z where the terminal is
    /// not raw). Caught only where the owner puts the terminal back first.
    case suspend = 20
    /// SIGCONT: going on after a stop (`fg`).
    case continued = 18

    /// The signals a pipe catches unless told otherwise: the ending ones and SIGWINCH.
    public static let standard: [TerminalSignal] = [.interrupt, .hangup, .terminate, .windowChanged]

    /// The signal's number on this system.
    public var number: Int32 {
        switch self {
        case .interrupt: return SIGINT
        case .hangup: return SIGHUP
        case .terminate: return SIGTERM
        case .windowChanged: return SIGWINCH
        case .suspend: return SIGTSTP
        case .continued: return SIGCONT
        }
    }

    /// The case for a signal number, nil for others.
    public init?(number: Int32) {
        guard let match = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = match
    }

    /// True for the signals that end a session (SIGINT, SIGHUP, SIGTERM).
    public var endsSession: Bool { [.interrupt, .hangup, .terminate].contains(self) }

    /// The shell's exit status for a program ended by this signal: 128 + its number.
    public var exitCode: Int32 { 128 + number }
}
