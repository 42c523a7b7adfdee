import CZeroMQ

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

    deinit { zmq_ctx_term(handle) }
}
