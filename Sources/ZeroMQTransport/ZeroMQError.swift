import CZeroMQ

/// A libzmq call that failed, with the call, the endpoint if any, and libzmq's reason.
public struct ZeroMQError: Error, Equatable, CustomStringConvertible {
    /// The libzmq function that failed.
    public let call: String
    /// The endpoint involved, if any.
    public let endpoint: String?
    /// libzmq's errno.
    public let code: Int32
    /// Said instead of libzmq's message for `code` when the errno alone
    /// would not tell what went wrong; nil for libzmq's message.
    public let explanation: String?

    /// A failure with a known errno (for checks made outside libzmq), and
    /// optionally an explanation said instead of libzmq's message.
    public init(call: String, endpoint: String?, code: Int32, explanation: String? = nil) {
        self.call = call
        self.endpoint = endpoint
        self.code = code
        self.explanation = explanation
    }

    /// Captures `zmq_errno()` for a failed `call`.
    public static func last(_ call: String, endpoint: String? = nil) -> ZeroMQError {
        ZeroMQError(call: call, endpoint: endpoint, code: zmq_errno())
    }

    /// `call` (endpoint): libzmq's message, or the explanation.
    public var description: String {
        let reason = explanation ?? String(cString: zmq_strerror(code))
        return endpoint.map { "\(call) \($0): \(reason)" } ?? "\(call): \(reason)"
    }
}
