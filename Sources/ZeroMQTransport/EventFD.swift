import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// A Linux eventfd: other threads `signal()` it, the socket's owner thread
/// polls its descriptor in the same `zmq_poll` as the socket and `drain()`s it.
/// Only its descriptor is stored, so it is safe to share between threads.
///
/// ```swift
/// let wake = try EventFD()
/// let ready = ZeroMQPoll.wait([.socket(socket), .descriptor(wake.descriptor)], milliseconds: 200)
/// if ready[1].readable { wake.drain() }   // another thread's wake.signal() ended the wait
/// ```
public final class EventFD: Sendable {
    /// The file descriptor to poll for reading.
    public let descriptor: Int32

    /// A non-blocking, close-on-exec eventfd.
    public init() throws(ZeroMQError) {
        descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { throw ZeroMQError(call: "eventfd", endpoint: nil, code: errno) }
    }

    deinit { close(descriptor) }

    /// Makes the descriptor readable: wakes the thread polling it. Any thread may call it.
    public func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Resets the descriptor after a wake-up (the polling thread calls it).
    public func drain() {
        var value: UInt64 = 0
        _ = read(descriptor, &value, 8)
    }
}
