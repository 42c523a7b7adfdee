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

    /// A failure with a known errno (for checks made outside libzmq).
    ///
    /// ```swift
    /// throw ZeroMQError(call: "zmq_bind", endpoint: endpoint, code: EADDRINUSE)
    /// ```
    public init(call: String, endpoint: String?, code: Int32) {
        self.call = call
        self.endpoint = endpoint
        self.code = code
    }

    /// Captures `zmq_errno()` for a failed `call`.
    ///
    /// ```swift
    /// throw ZeroMQError.last("zmq_bind", endpoint: "ipc:///tmp/x")
    /// ```
    public static func last(_ call: String, endpoint: String? = nil) -> ZeroMQError {
        ZeroMQError(call: call, endpoint: endpoint, code: zmq_errno())
    }

    /// `call` (endpoint): libzmq's message.
    public var description: String {
        let reason = String(cString: zmq_strerror(code))
        return endpoint.map { "\(call) \($0): \(reason)" } ?? "\(call): \(reason)"
    }
}
