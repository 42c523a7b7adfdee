import CZeroMQ
import Synchronization

/// One libzmq socket. Not thread-safe: exactly one thread may use it.
public final class ZeroMQSocket {
    /// The socket types this project uses.
    public enum Kind: Int32 {
        case pair = 0     // ZMQ_PAIR (a monitor's reading end)
        case reply = 4    // ZMQ_REP (the ZAP handler)
        case dealer = 5   // ZMQ_DEALER
        case router = 6   // ZMQ_ROUTER
    }

    /// The raw libzmq handle, for `zmq_poll` (``ZeroMQPoll``).
    let handle: UnsafeMutableRawPointer
    let context: ZeroMQContext
    private var closed = false

    /// Creates a socket with linger 0 and a 16 MiB maximum message size.
    public init(context: ZeroMQContext = .shared, type: Kind) throws(ZeroMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else { throw .last("zmq_socket") }
        self.handle = handle
        self.context = context
        context.openSockets.add(1, ordering: .releasing)
        try setOption(ZMQ_LINGER, Int32(0))
        try setOption(ZMQ_MAXMSGSIZE, int64: Int64(Self.maximumMessageSize))
    }

    /// Largest ZeroMQ frame accepted, bytes (16 MiB): one Utopia message
    /// is at most 65,539 bytes, and a frame may hold several
    /// (Protocols/decoder-bridge.md §2); the cap keeps a runaway peer from
    /// filling the memory. libzmq drops the connection of a peer that
    /// sends a larger frame.
    public static let maximumMessageSize = 16 << 20

    deinit { close() }

    /// Closes the socket (also done on deinit).
    public func close() {
        guard !closed else { return }
        closed = true
        zmq_close(handle)
        context.openSockets.subtract(1, ordering: .releasing)
    }

    /// The socket options the project sets, by what they do.
    public enum Option: Sendable, Equatable {
        /// Queue messages only on completed connections (ZMQ_IMMEDIATE).
        case immediate(Bool)
        /// Time between reconnection attempts (ZMQ_RECONNECT_IVL).
        case reconnectInterval(milliseconds: Int32)
        /// Bound on one TCP connect attempt (ZMQ_CONNECT_TIMEOUT).
        case connectTimeout(milliseconds: Int32)
        /// Messages held for sending before a send fails or blocks (ZMQ_SNDHWM; 0: no limit).
        case sendHighWaterMark(Int32)
        /// Messages held as received before the peer is held back (ZMQ_RCVHWM; 0: no limit).
        case receiveHighWaterMark(Int32)
        /// How long a blocking receive waits (ZMQ_RCVTIMEO; -1: for ever).
        case receiveTimeout(milliseconds: Int32)
        /// How long closing waits for queued messages to go out (ZMQ_LINGER).
        case linger(milliseconds: Int32)
    }

    /// Sets one option.
    public func set(_ option: Option) throws(ZeroMQError) {
        switch option {
        case .immediate(let on): try setOption(ZMQ_IMMEDIATE, on ? 1 : 0)
        case .reconnectInterval(let ms): try setOption(ZMQ_RECONNECT_IVL, ms)
        case .connectTimeout(let ms): try setOption(ZMQ_CONNECT_TIMEOUT, ms)
        case .sendHighWaterMark(let count): try setOption(ZMQ_SNDHWM, count)
        case .receiveHighWaterMark(let count): try setOption(ZMQ_RCVHWM, count)
        case .receiveTimeout(let ms): try setOption(ZMQ_RCVTIMEO, ms)
        case .linger(let ms): try setOption(ZMQ_LINGER, ms)
        }
    }

    /// Sets an int option by its libzmq number.
    func setOption(_ option: Int32, _ value: Int32) throws(ZeroMQError) {
        var v = value
        guard zmq_setsockopt(handle, option, &v, MemoryLayout<Int32>.size) == 0 else { throw .last("zmq_setsockopt(\(option))") }
    }

    /// Sets an int64 option by its libzmq number.
    func setOption(_ option: Int32, int64 value: Int64) throws(ZeroMQError) {
        var v = value
        guard zmq_setsockopt(handle, option, &v, MemoryLayout<Int64>.size) == 0 else { throw .last("zmq_setsockopt(\(option))") }
    }

    /// Sets a binary or text option (keys, the ZAP domain) by its libzmq number.
    func setOption(_ option: Int32, bytes: [UInt8]) throws(ZeroMQError) {
        // C boundary: libzmq copies `bytes.count` bytes from the array's storage.
        guard zmq_setsockopt(handle, option, bytes, bytes.count) == 0 else { throw .last("zmq_setsockopt(\(option))") }
    }

    /// Binds to `endpoint`.
    public func bind(_ endpoint: String) throws(ZeroMQError) {
        guard zmq_bind(handle, endpoint) == 0 else { throw .last("zmq_bind", endpoint: endpoint) }
    }

    /// Connects to `endpoint` (libzmq keeps reconnecting by itself).
    public func connect(_ endpoint: String) throws(ZeroMQError) {
        guard zmq_connect(handle, endpoint) == 0 else { throw .last("zmq_connect", endpoint: endpoint) }
    }

    /// Ends the connection to `endpoint` made by ``connect(_:)``, and
    /// libzmq's retries of it.
    public func disconnect(_ endpoint: String) throws(ZeroMQError) {
        guard zmq_disconnect(handle, endpoint) == 0 else { throw .last("zmq_disconnect", endpoint: endpoint) }
    }

    /// Sends one frame; `more` marks a multi-frame message. Returns false
    /// when it would block (with `dontWait`).
    @discardableResult
    // C boundary: zmq_send copies from this buffer before it returns.
    public func send(_ bytes: UnsafeRawBufferPointer, more: Bool = false, dontWait: Bool = false) throws(ZeroMQError) -> Bool {
        let flags = (more ? ZMQ_SNDMORE : 0) | (dontWait ? ZMQ_DONTWAIT : 0)
        if zmq_send(handle, bytes.baseAddress, bytes.count, flags) >= 0 { return true }
        if zmq_errno() == EAGAIN { return false }
        throw .last("zmq_send")
    }

    /// Sends one frame from an array.
    @discardableResult
    public func send(_ bytes: [UInt8], more: Bool = false, dontWait: Bool = false) throws(ZeroMQError) -> Bool {
        var result: Result<Bool, ZeroMQError> = .success(false)
        // C boundary: the array's bytes are lent to zmq_send, which copies them.
        bytes.withUnsafeBytes { raw in
            do throws(ZeroMQError) {
                result = .success(try send(raw, more: more, dontWait: dontWait))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Receives one frame; nil when none is waiting (with `dontWait`).
    /// Also says whether more frames of the same message follow.
    public func receive(dontWait: Bool = false) throws(ZeroMQError) -> (bytes: [UInt8], more: Bool)? {
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        if zmq_msg_recv(&message, handle, dontWait ? ZMQ_DONTWAIT : 0) < 0 {
            if zmq_errno() == EAGAIN { return nil }
            throw .last("zmq_msg_recv")
        }
        let size = zmq_msg_size(&message)
        // C boundary: copy the received zmq_msg_t's bytes out before it is closed.
        let bytes = [UInt8](UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: size))
        return (bytes, zmq_msg_more(&message) != 0)
    }
}
