#if canImport(Glibc)
import Glibc
#endif

/// A TCP call that failed: the call, the address and the operating system's reason.
public struct TCPError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The call (`connect`, `bind`, `listen`, `recv`, `send`, `getaddrinfo`, …).
    public let call: String
    /// `host:port`.
    public let address: String
    /// `errno`, or the `getaddrinfo` code for that call.
    public let code: Int32
    /// The reason in words, when it is not `strerror(code)`.
    public let reason: String?

    /// Creates the error.
    public init(call: String, address: String, code: Int32, reason: String? = nil) {
        self.call = call
        self.address = address
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(call) \(address): \(reason ?? String(cString: strerror(code)))" }
}
