import CZeroMQ
import Foundation

/// A libzmq context: one per process is enough; sockets keep it alive.
///
/// ```swift
/// let socket = try ZeroMQSocket(context: .shared, type: .dealer)
/// ```
public final class ZeroMQContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// The process-wide context.
    ///
    /// ```swift
    /// let context = ZeroMQContext.shared
    /// ```
    public static let shared = ZeroMQContext()

    /// Creates a context.
    ///
    /// ```swift
    /// let context = ZeroMQContext()
    /// ```
    public init() {
        handle = zmq_ctx_new()
    }

    private let lock = NSLock()
    private var terminated = false

    /// Ends the context: waits until every socket made in it is closed and
    /// each one's linger has passed, so frames they queued are written out.
    /// Further calls do nothing; deinit calls it too.
    ///
    /// ```swift
    /// socket.close(); context.terminate()
    /// ```
    public func terminate() {
        lock.lock()
        defer { lock.unlock() }
        guard !terminated else { return }
        terminated = true
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }

    deinit { terminate() }
}
