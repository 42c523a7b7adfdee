import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT and SIGTERM once ``StopSignal/install()`` ran.
nonisolated(unsafe) private var stopSignalReceived: sig_atomic_t = 0

/// SIGINT and SIGTERM as a request to stop: the long-running loops of the
/// command-line tool (the decoder, the amplifier, the headless demo and
/// session runners) install the handlers once and end at their next check
/// of ``requested``. A process runs one such loop, so they share one flag.
enum StopSignal {
    /// Makes SIGINT and SIGTERM set ``requested`` instead of ending the process.
    static func install() {
        signal(SIGINT) { _ in stopSignalReceived = 1 }
        signal(SIGTERM) { _ in stopSignalReceived = 1 }
    }

    /// True once SIGINT or SIGTERM arrived after ``install()``.
    static var requested: Bool { stopSignalReceived != 0 }
}
