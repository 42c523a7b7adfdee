import CZeroMQ
import Foundation
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

    /// Ends the context: waits until every socket made in it is closed and
    /// each one's linger has passed, so frames they queued are written out.
    /// Further calls do nothing; deinit calls it too.
    public func terminate() {
        terminated.withLock { terminated in
            guard !terminated else { return }
            terminated = true
            while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
        }
    }

    deinit { terminate() }
}
