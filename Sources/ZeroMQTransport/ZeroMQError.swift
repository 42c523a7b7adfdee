import CZeroMQ

/// A libzmq call that failed, with the call, the endpoint if any, and libzmq's reason.
///
/// ```swift
/// do { try socket.connect("ipc:///nowhere/x.sock") } catch { print(error) }
/// ```
public struct ZeroMQError: Error, Equatable, CustomStringConvertible {
    /// The libzmq function that failed.
    public let call: String
    /// The endpoint involved, if any.
    public let endpoint: String?
    /// libzmq's errno.
    public let code: Int32
    /// Said instead of libzmq's message for `code` when the errno alone
    /// would not tell what went wrong; nil for libzmq's message.
    ///
    /// ```swift
    /// print(error.explanation ?? "libzmq: \(error.code)")
    /// ```
    public let explanation: String?

    /// A failure with a known errno (for checks made outside libzmq), and
    /// optionally an explanation said instead of libzmq's message.
    ///
    /// ```swift
    /// throw ZeroMQError(call: "zmq_bind", endpoint: endpoint, code: EADDRINUSE)
    /// throw ZeroMQError(call: "zmq_has", endpoint: nil, code: ENOTSUP, explanation: "this libzmq has no CURVE")
    /// ```
    public init(call: String, endpoint: String?, code: Int32, explanation: String? = nil) {
        self.call = call
        self.endpoint = endpoint
        self.code = code
        self.explanation = explanation
    }

    /// Captures `zmq_errno()` for a failed `call`.
    ///
    /// ```swift
    /// throw ZeroMQError.last("zmq_bind", endpoint: "ipc:///tmp/x")
    /// ```
    public static func last(_ call: String, endpoint: String? = nil) -> ZeroMQError {
        ZeroMQError(call: call, endpoint: endpoint, code: zmq_errno())
    }

    /// `call` (endpoint): libzmq's message, or the explanation.
    public var description: String {
        let reason = explanation ?? String(cString: zmq_strerror(code))
        return endpoint.map { "\(call) \($0): \(reason)" } ?? "\(call): \(reason)"
    }
}
