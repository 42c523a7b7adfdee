/// Why a ``SignalPipe`` could not be opened; each description is one line.
public enum SignalPipeError: Error, Equatable, CustomStringConvertible {
    /// Another pipe is open in this process (there is one set of handlers).
    case alreadyOpen
    /// A system call failed, with its errno.
    case systemCall(name: String, errno: Int32)

    /// The reason, in one line.
    public var description: String {
        switch self {
        case .alreadyOpen: return "a signal pipe is already open in this process"
        case .systemCall(let name, let errno): return "\(name) failed (errno \(errno))"
        }
    }
}
