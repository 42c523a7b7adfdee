import CZeroMQ

/// One `zmq_poll`: waits until a ZeroMQ socket or a file descriptor (an
/// eventfd, a TCP socket) can be read or written, or a time has passed, so
/// that one thread serves all of them.
public enum ZeroMQPoll {
    /// What to wait on: reading always, writing too when `writable`.
    public struct Item {
        let socket: ZeroMQSocket?
        let descriptor: Int32
        let writable: Bool

        /// A ZeroMQ socket, waited on until it has a message.
        public static func socket(_ socket: ZeroMQSocket) -> Item {
            Item(socket: socket, descriptor: 0, writable: false)
        }

        /// A file descriptor, waited on until it can be read (or, with
        /// `writable`, written).
        public static func descriptor(_ descriptor: Int32, writable: Bool = false) -> Item {
            Item(socket: nil, descriptor: descriptor, writable: writable)
        }
    }

    /// What one item was found ready for.
    public struct Readiness: Sendable, Equatable {
        /// Something can be read (or, for a descriptor, the peer closed).
        public let readable: Bool
        /// Something can be written without blocking.
        public let writable: Bool
        /// The descriptor is in error.
        public let failed: Bool
    }

    /// Waits up to `milliseconds` (0: only looks; -1: for ever) until an
    /// item is ready; one readiness per item, in order. A failed poll (a
    /// signal, a closed context) reports nothing ready.
    public static func wait(_ items: [Item], milliseconds: Int) -> [Readiness] {
        var raw = items.map { item in
            var events = Int16(ZMQ_POLLIN)
            if item.writable { events |= Int16(ZMQ_POLLOUT) }
            return zmq_pollitem_t(socket: item.socket?.handle, fd: item.descriptor, events: events, revents: 0)
        }
        // C boundary: libzmq reads the sockets and descriptors and writes each item's revents.
        let status = withExtendedLifetime(items) { zmq_poll(&raw, Int32(raw.count), milliseconds) }
        return raw.map { item in
            let ready = status > 0 ? item.revents : 0
            return Readiness(readable: ready & Int16(ZMQ_POLLIN) != 0, writable: ready & Int16(ZMQ_POLLOUT) != 0,
                             failed: ready & Int16(ZMQ_POLLERR) != 0)
        }
    }
}
