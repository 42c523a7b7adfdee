#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals a ``SignalPipe`` catches: the three that end a program (or
/// a terminal session) and the one that reports a new window size.
public enum TerminalSignal: Int32, Sendable, CaseIterable {
    /// SIGINT (Ctrl-C when the terminal is not in raw mode, or `kill -INT`).
    case interrupt = 2
    /// SIGHUP: the terminal went away.
    case hangup = 1
    /// SIGTERM.
    case terminate = 15
    /// SIGWINCH: the window changed size.
    case windowChanged = 28

    /// The signal's number on this system.
    public var number: Int32 {
        switch self {
        case .interrupt: return SIGINT
        case .hangup: return SIGHUP
        case .terminate: return SIGTERM
        case .windowChanged: return SIGWINCH
        }
    }

    /// The case for a signal number, nil for others.
    public init?(number: Int32) {
        guard let match = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = match
    }

    /// True for the signals that end a session (all but SIGWINCH).
    public var endsSession: Bool { self != .windowChanged }

    /// The shell's exit status for a program ended by this signal: 128 + its number.
    public var exitCode: Int32 { 128 + number }
}
