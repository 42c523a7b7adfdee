import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// A Linux eventfd: other threads `signal()` it, the socket's owner thread
/// polls its descriptor in the same `zmq_poll` as the socket and `drain()`s it.
final class EventFD {
    let descriptor: Int32

    init() throws(ZeroMQError) {
        descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { throw ZeroMQError(call: "eventfd", endpoint: nil, code: errno) }
    }

    deinit { close(descriptor) }

    func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    func drain() {
        var value: UInt64 = 0
        _ = read(descriptor, &value, 8)
    }
}
