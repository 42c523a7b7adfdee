import Foundation
import IOThreads

/// The pipe ``StopSignal/install()`` opened; the command's main thread
/// alone reads it (the signal handler writes to the pipe, not to this).
nonisolated(unsafe) private var stopSignalPipe: SignalPipe?
/// Latched once an ending signal came through ``stopSignalPipe``.
nonisolated(unsafe) private var stopSignalSeen = false

/// SIGINT, SIGTERM and SIGHUP as a request to stop, for the long-running
/// loops of the command-line tool (the decoder, the amplifier, the headless
/// demo and session runners). They go through the same self-pipe
/// (``SignalPipe``) the full-screen terminal uses, so the tool handles
/// signals one way: the handler writes a byte, the loop ends at its next
/// check of ``requested`` and closes its recordings as usual.
enum StopSignal {
    /// Catches the signals. Without a pipe (the system refused one) they end
    /// the process as by default, and a warning says so.
    static func install() {
        guard stopSignalPipe == nil else { return }
        do { stopSignalPipe = try SignalPipe() } catch {
            FileHandle.standardError.writeIfOpen(Data("noisetag: cannot catch SIGINT and SIGTERM (\(error)): they end the process at once\n".utf8))
        }
    }

    /// True once SIGINT, SIGTERM or SIGHUP arrived after ``install()``.
    static var requested: Bool {
        if !stopSignalSeen, let pipe = stopSignalPipe {
            stopSignalSeen = pipe.drain().contains { $0.endsSession }
        }
        return stopSignalSeen
    }
}
