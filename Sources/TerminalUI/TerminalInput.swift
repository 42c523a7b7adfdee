import IOThreads

/// Something that reached the terminal session since the last frame: a
/// key byte, a new window size, or a signal.
///
/// Keys arrive as raw bytes (the terminal is in raw mode): Ctrl-C is 3,
/// and an escape sequence such as an arrow key arrives byte by byte.
///
/// ```swift
/// for input in session.readInput() {
///     if input.endsSession { return }
///     if case .key(UInt8(ascii: " ")) = input { controller.trialsAreRunning.toggle() }
/// }
/// ```
public enum TerminalInput: Equatable, Sendable {
    /// One byte typed.
    case key(UInt8)
    /// The window has a new size.
    case resized(TerminalSize)
    /// A signal arrived: SIGINT, SIGTERM or SIGHUP (ending), SIGTSTP (a
    /// stop asked for), or SIGCONT (the session continued after a stop).
    case signal(TerminalSignal)

    /// True for Ctrl-Z (byte 26) and SIGTSTP: a stop asked for.
    public var asksToSuspend: Bool { self == .key(26) || self == .signal(.suspend) }

    /// True for `q`, Ctrl-C (byte 3) and the signals that end a session
    /// (upper-case `Q` is a key like any other: the demo types it by touch).
    public var endsSession: Bool {
        switch self {
        case .key(let byte): return byte == UInt8(ascii: "q") || byte == 3
        case .resized: return false
        case .signal(let signal): return signal.endsSession
        }
    }

    /// The process exit status when this input ends the session: 0 for a
    /// key, 130 for Ctrl-C and SIGINT, 128 + the number for other signals.
    public var exitCode: Int32 {
        switch self {
        case .key(3): return TerminalSignal.interrupt.exitCode
        case .key, .resized: return 0
        case .signal(let signal): return signal.exitCode
        }
    }
}
