import CZeroMQ

/// Counts the connections a socket completes: each time libzmq finishes a
/// handshake with a peer (ZMTP, and CurveZMQ's when the socket uses it),
/// including every reconnection it makes by itself. A link that must greet
/// a peer again after it comes back (a decoder restarted within the
/// engine's disconnect timeout) learns of it here.
///
/// libzmq reports the events on an `inproc://` PAIR socket of the watched
/// socket's context; ``socket`` is that PAIR's reading end, for a poll.
/// Like the watched socket, it belongs to one thread; close it after the
/// watched socket and before the context ends.
public final class ZeroMQHandshakeMonitor {
    /// The reading end, to poll with the watched socket.
    public let socket: ZeroMQSocket

    /// Starts watching `watched` (before it connects, so the first
    /// connection counts too).
    public init(watching watched: ZeroMQSocket) throws(ZeroMQError) {
        // The handle's address names the monitor uniquely within the process while the socket lives.
        let address = "inproc://noisetag-monitor-\(UInt(bitPattern: watched.handle))"
        guard zmq_socket_monitor(watched.handle, address, ZMQ_EVENT_HANDSHAKE_SUCCEEDED) == 0 else {
            throw .last("zmq_socket_monitor", endpoint: address)
        }
        socket = try ZeroMQSocket(context: watched.context, type: .pair)
        try socket.connect(address)
    }

    /// Reads every event waiting and returns how many were completed
    /// handshakes. Each event is two frames: 6 bytes (the event's 16-bit
    /// number, then a 32-bit value, in the machine's byte order) and the
    /// peer's endpoint.
    public func drainHandshakes() -> Int {
        var count = 0
        while let frame = try? socket.receive(dontWait: true) {
            // C boundary: the event number as libzmq wrote it, in the machine's byte order.
            if frame.bytes.count == 6, frame.bytes.withUnsafeBytes({ $0.loadUnaligned(as: UInt16.self) }) == UInt16(ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
                count += 1
            }
            var more = frame.more
            while more, let next = try? socket.receive(dontWait: true) { more = next.more }
        }
        return count
    }

    /// Closes the reading end.
    public func close() { socket.close() }
}
