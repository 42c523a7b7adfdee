#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IOThreads

/// The terminal as a full-screen display: alternate screen, raw input,
/// hidden cursor, its size, its colour support, and a non-blocking output
/// for frames.
///
/// The terminal is put back exactly as it was (termios, main screen,
/// cursor, colours) by ``restore()``, which ``run(environment:_:)`` calls
/// on every way out of its body: a normal return, a thrown error, and —
/// because SIGINT, SIGTERM and SIGHUP only post a byte to a
/// ``SignalPipe`` that ``readInput()`` turns into ``TerminalInput/signal(_:)`` —
/// the signals too, once the owner's loop returns. In raw mode Ctrl-C is
/// the key byte 3 and Ctrl-Z the byte 26, not signals; SIGTSTP arrives as
/// ``TerminalInput/signal(_:)`` for the owner to call ``suspend()``.
///
/// Frames go to the terminal through ``output``, a ``FrameOutput`` on a
/// separate non-blocking descriptor of the same terminal (so the shell's
/// own descriptor never inherits `O_NONBLOCK`).
///
/// The session belongs to the thread that created it.
///
/// ```swift
/// let status = try TerminalSession.run { session in
///     let screen = TerminalScreen(size: session.size, colorMode: session.colorMode)
///     while true {
///         for input in session.readInput() where input.endsSession { return input.exitCode }
///         draw(on: screen)
///         var bytes: [UInt8] = []
///         screen.encodeChanges(into: &bytes)
///         if session.output.flushPending() { session.output.submit(bytes) }
///     }
/// }
/// ```
public final class TerminalSession {
    /// How colours are written (24-bit or the 256-colour fallback).
    public let colorMode: TerminalColorMode
    /// The window's size, updated by ``readInput()`` after SIGWINCH.
    public private(set) var size: TerminalSize
    /// Frames out, one write each.
    public let output: FrameOutput
    private let inputDescriptor: Int32 = STDIN_FILENO
    private let outputDescriptor: Int32
    private var original: termios
    /// The raw mode the session sets, again after a stop.
    private var rawMode = termios()
    private let signals: SignalPipe
    private var isActive = true

    /// The bytes that set up the display: alternate screen, hidden cursor, no auto-wrap, cleared.
    static let enterSequence = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J".utf8)
    /// The bytes that undo ``enterSequence``: CAN (ends an escape sequence a
    /// cut frame may have left open), colours reset, auto-wrap and cursor
    /// back, main screen.
    static let leaveSequence = Array("\u{18}\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// The colours this process's terminal can show, or the ``TerminalError``
    /// saying why a session cannot open here: standard input or output not
    /// a terminal, no TERM, TERM=dumb, or fewer than 256 colours. Changes
    /// nothing, so a program can check before it starts anything else.
    public static func colorMode(environment: [String: String]) throws(TerminalError) -> TerminalColorMode {
        guard isatty(STDIN_FILENO) == 1 else { throw .notATerminal(stream: "input") }
        return try TerminalColorMode.detect(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1)
    }

    /// Opens the session: checks that standard input and output are a
    /// terminal that can show colours (throws a ``TerminalError`` naming
    /// the reason otherwise), catches the signals, switches to raw mode
    /// and the alternate screen and hides the cursor.
    public init(environment: [String: String]) throws(TerminalError) {
        colorMode = try Self.colorMode(environment: environment)
        var saved = termios()
        // C boundary: tcgetattr(3) fills the termios struct.
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw .systemCall(name: "tcgetattr", errno: errno) }
        original = saved
        // A second description of the terminal, so O_NONBLOCK stays off the shell's.
        guard let name = ttyname(STDOUT_FILENO) else { throw .systemCall(name: "ttyname", errno: errno) }
        let descriptor = open(name, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .systemCall(name: "open terminal", errno: errno) }
        outputDescriptor = descriptor
        output = FrameOutput(fileDescriptor: descriptor)
        do {
            signals = try SignalPipe(catching: TerminalSignal.allCases)
        } catch {
            close(descriptor)
            switch error {
            case .alreadyOpen: throw .sessionAlreadyOpen
            case .systemCall(let name, let errno): throw .systemCall(name: name, errno: errno)
            }
        }
        size = Self.windowSize(of: descriptor) ?? TerminalSize(columns: 80, rows: 24)
        var raw = saved
        cfmakeraw(&raw)
        // C boundary: c_cc is a fixed C array; a read returns with one byte (reads follow a poll).
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        rawMode = raw
        // C boundary: tcsetattr(3) reads the termios struct.
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
            let error = errno
            // Nothing was changed yet; undo by hand and keep deinit's restore() from running.
            isActive = false
            signals.uninstall()
            close(descriptor)
            throw .systemCall(name: "tcsetattr", errno: error)
        }
        output.writeAll(Self.enterSequence, timeout: 1)
    }

    /// Runs `body` in an open session and restores the terminal whatever
    /// way `body` ends (return or throw).
    public static func run<T>(environment: [String: String] = currentEnvironment(),
                              _ body: (TerminalSession) throws -> T) throws -> T {
        let session = try TerminalSession(environment: environment)
        defer { session.restore() }
        return try body(session)
    }

    /// The process environment (`environ`), without Foundation.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        // C boundary: environ is a NULL-terminated array of C strings.
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// Everything that arrived since the last call, without waiting: key
    /// bytes, a ``TerminalInput/resized(_:)`` after SIGWINCH (with ``size``
    /// already updated), and the ending signals.
    public func readInput() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        for signal in signals.drain() {
            switch signal {
            case .windowChanged:
                if let newSize = Self.windowSize(of: outputDescriptor), newSize != size {
                    size = newSize
                    inputs.append(.resized(newSize))
                }
            case .continued:
                // Stopped and continued from outside (SIGSTOP, or a stop before the handler ran): the shell had the terminal.
                reenter()
                inputs.append(.signal(.continued))
            default:
                inputs.append(.signal(signal))
            }
        }
        var poller = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 256)
        // C boundary: poll(2) with a zero timeout reads the pollfd struct.
        while poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLIN) != 0 {
            // C boundary: read(2) fills the buffer.
            let count = buffer.withUnsafeMutableBytes { read(inputDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                // End of input: the terminal is gone.
                inputs.append(.signal(.hangup))
                break
            }
            for byte in buffer[0..<count] { inputs.append(.key(byte)) }
            poller.revents = 0
        }
        return inputs
    }

    /// Puts the terminal back: the rest of the last frame (dropped if the
    /// terminal does not take it within a second), then colours
    /// reset, cursor shown, main screen, the original termios; the signal
    /// handlers are uninstalled. Safe to call more than once.
    public func restore() {
        guard isActive else { return }
        isActive = false
        // The rest of the last frame, if the terminal takes it within a second; else it is dropped.
        if !output.drain(timeout: 1) { output.discardPending() }
        output.writeAll(Self.leaveSequence, timeout: 1)
        var saved = original
        // C boundary: tcsetattr(3) reads the saved termios struct.
        _ = tcsetattr(inputDescriptor, TCSAFLUSH, &saved)
        signals.uninstall()
        close(outputDescriptor)
    }

    deinit { restore() }

    /// True when a stop can be resumed: the process runs as a job of a
    /// shell with job control (its own process group in the foreground,
    /// not the session's leader), so `fg` brings it back. Run straight in a
    /// terminal window it is not, and Ctrl-Z should not stop it for good.
    public var canSuspend: Bool {
        // C boundary: getpgrp(2), getsid(2), tcgetpgrp(3) read process ids.
        getpgrp() != getsid(0) && tcgetpgrp(inputDescriptor) == getpgrp()
    }

    /// Stops the process as SIGTSTP would, the terminal put back meanwhile
    /// (main screen, cursor, the shell's mode); once continued (`fg`), raw
    /// mode and the alternate screen are back: draw the next frame whole
    /// (``TerminalScreen/invalidate()``). Returns at once where the stop
    /// could not be resumed (``canSuspend``).
    public func suspend() {
        guard isActive, canSuspend else { return }
        if !output.drain(timeout: 1) { output.discardPending() }
        output.writeAll(Self.leaveSequence, timeout: 1)
        var saved = original
        // C boundary: tcsetattr(3) reads the saved termios struct; kill(2) stops this process until SIGCONT.
        _ = tcsetattr(inputDescriptor, TCSADRAIN, &saved)
        _ = kill(getpid(), SIGSTOP)
        reenter()
    }

    /// Raw mode and the alternate screen again, and the window's size now.
    private func reenter() {
        guard isActive else { return }
        var raw = rawMode
        // C boundary: tcsetattr(3) reads the termios struct.
        _ = tcsetattr(inputDescriptor, TCSAFLUSH, &raw)
        output.writeAll(Self.enterSequence, timeout: 1)
        if let newSize = Self.windowSize(of: outputDescriptor) { size = newSize }
    }

    /// The window size of a terminal descriptor (TIOCGWINSZ), nil when unknown.
    static func windowSize(of descriptor: Int32) -> TerminalSize? {
        var window = winsize()
        // C boundary: ioctl(2) TIOCGWINSZ fills the winsize struct.
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }
}
