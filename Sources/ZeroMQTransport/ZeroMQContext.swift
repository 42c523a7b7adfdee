import CZeroMQ
import Foundation
import IOThreads
import Synchronization

/// A libzmq context: one per process is enough; sockets keep it alive.
// @unchecked: the raw handle is not Sendable, but a libzmq context is thread-safe by design.
public final class ZeroMQContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// The process-wide context.
    public static let shared = ZeroMQContext()

    /// Creates a context.
    public init() {
        handle = zmq_ctx_new()
    }

    private let terminated = Mutex(false)
    /// Sockets made in this context and not yet closed (``ZeroMQSocket`` counts itself).
    let openSockets = Atomic<Int>(0)

    /// Ends the context: waits until every socket made in it is closed and
    /// each one's linger has passed, so frames they queued are written out.
    /// libzmq would wait for ever for a socket nobody closes (a link or a
    /// decoder still running: close and stop them first), so the sockets
    /// still open get `waitingUpTo` seconds to close; if some are still
    /// open then, the context is left as it is, the reason goes to standard
    /// error, and the result is false. Further calls do nothing and return
    /// true; deinit calls it too.
    @discardableResult
    public func terminate(waitingUpTo seconds: Double = 2) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while openSockets.load(ordering: .acquiring) > 0, Date() < deadline { usleep(10_000) }
        let open = openSockets.load(ordering: .acquiring)
        return terminated.withLock { terminated in
            guard !terminated else { return true }
            guard open == 0 else {
                FileHandle.standardError.writeIfOpen(Data(("ZeroMQContext.terminate(): \(open) socket\(open == 1 ? " is" : "s are") still open after \(seconds) s; "
                    + "close every link and stop every decoder made in this context first (the context is left as it is)\n").utf8))
                return false
            }
            terminated = true
            while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
            return true
        }
    }

    deinit { terminate(waitingUpTo: 0) }
}
