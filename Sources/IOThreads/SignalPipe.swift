#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The write end of the open ``SignalPipe``, read by the signal handler
/// (-1 when none is open). An atomic, because a handler may run on any thread.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The whole signal handler: one byte (the signal number) into a
/// non-blocking pipe. `write(2)` is async-signal-safe; errno is kept for
/// the interrupted code.
private func forwardSignal(_ number: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: number)
    // C boundary: write(2) needs the byte's address; nothing else happens in the handler.
    _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
    errno = savedErrno
}

/// The self-pipe trick: SIGINT, SIGTERM, SIGHUP and SIGWINCH (and, when
/// asked, SIGTSTP and SIGCONT) are turned into bytes that the owning
/// thread reads when it is ready (a terminal
/// at its next frame, an app between ticks), so everything else (closing
/// a recording, restoring the terminal, reading the new size) happens on
/// that thread and not in the handler. Uninstalling puts the
/// previous handlers back.
///
/// ```swift
/// let signals = try SignalPipe()
/// defer { signals.uninstall() }
/// for signal in signals.drain() where signal.endsSession { stop() }
/// ```
public final class SignalPipe {
    /// The end the owner reads, non-blocking (poll it with the terminal's input).
    public let readEnd: Int32
    private let writeEnd: Int32
    private var previous: [(Int32, sigaction)] = []
    private var installed = true

    /// Opens the pipe and installs the handlers for `signals`. Only one pipe can be open per process.
    public init(catching signals: [TerminalSignal] = TerminalSignal.standard) throws(SignalPipeError) {
        var ends: [Int32] = [-1, -1]
        // C boundary: pipe(2) fills the two descriptors.
        guard pipe(&ends) == 0 else { throw .systemCall(name: "pipe", errno: errno) }
        readEnd = ends[0]
        writeEnd = ends[1]
        for fd in ends {
            // Non-blocking both ways: the handler never waits, drain() never blocks.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        guard signalPipeWriteEnd.compareExchange(expected: -1, desired: writeEnd, ordering: .sequentiallyConsistent).exchanged else {
            close(readEnd)
            close(writeEnd)
            throw .alreadyOpen
        }
        for signal in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = forwardSignal
            #else
            action.__sigaction_u.__sa_handler = forwardSignal
            #endif
            // C boundary: sigemptyset(3) fills the action's mask.
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            // C boundary: sigaction(2) reads the new action and fills the old one.
            if sigaction(signal.number, &action, &old) == 0 { previous.append((signal.number, old)) }
        }
    }

    /// The signals that arrived since the last call, oldest first.
    public func drain() -> [TerminalSignal] {
        var result: [TerminalSignal] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            // C boundary: read(2) fills the buffer.
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            for byte in buffer[0..<count] {
                if let signal = TerminalSignal(number: Int32(byte)) { result.append(signal) }
            }
        }
        return result
    }

    /// Puts the previous handlers back and closes the pipe (idempotent).
    public func uninstall() {
        guard installed else { return }
        installed = false
        for (number, old) in previous {
            var action = old
            // C boundary: sigaction(2) reads the saved action.
            _ = sigaction(number, &action, nil)
        }
        signalPipeWriteEnd.store(-1, ordering: .sequentiallyConsistent)
        close(readEnd)
        close(writeEnd)
    }

    deinit { uninstall() }
}
