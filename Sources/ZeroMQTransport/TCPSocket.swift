#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket: a connection to a Utopia hub, a listener for
/// Utopia clients, or a connection it accepted. It is owned by the one
/// thread that polls it (`descriptor` goes into that thread's `poll`);
/// ``close()`` (or deinit) closes it once.
///
/// ```swift
/// let socket = try TCPSocket.connect(host: "127.0.0.1", port: 8400, timeout: 2)
/// _ = try socket.send(frame[...])
/// var chunk = [UInt8](repeating: 0, count: 65_536)
/// if let count = try socket.receive(into: &chunk), count == 0 { print("the hub closed the connection") }
/// ```
public final class TCPSocket {
    /// The file descriptor (-1 once closed).
    public private(set) var descriptor: Int32
    /// `host:port` of the other end (or of the listener).
    public let address: String

    init(descriptor: Int32, address: String) {
        self.descriptor = descriptor
        self.address = address
    }

    deinit { close() }

    /// Closes the socket; later calls do nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    /// Resolves `host` (a name or a numeric address) for TCP.
    private static func addresses(host: String, port: UInt16, passive: Bool) throws(TCPError) -> [(family: Int32, address: [UInt8])] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        if passive { hints.ai_flags = AI_PASSIVE }
        var list: UnsafeMutablePointer<addrinfo>?    // C boundary: getaddrinfo allocates the list, freed below
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw TCPError(call: "getaddrinfo", address: "\(host):\(port)", code: status, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var result: [(Int32, [UInt8])] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            if let address = entry.pointee.ai_addr {
                // C boundary: copy the sockaddr's bytes out of the list before it is freed.
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen))
                result.append((entry.pointee.ai_family, Array(bytes)))
            }
            node = entry.pointee.ai_next
        }
        return result
    }

    private static func newSocket(family: Int32, address: String) throws(TCPError) -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TCPError(call: "socket", address: address, code: errno) }
        return fd
    }

    /// Connects to `host:port`, waiting at most `timeout` seconds. The
    /// socket is non-blocking and sends without delay (TCP_NODELAY).
    public static func connect(host: String, port: UInt16, timeout: Double = 2) throws(TCPError) -> TCPSocket {
        let name = "\(host):\(port)"
        var lastError = TCPError(call: "connect", address: name, code: EHOSTUNREACH)
        for (family, address) in try addresses(host: host, port: port, passive: false) {
            let fd = try newSocket(family: family, address: name)
            var on: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            // C boundary: connect reads the sockaddr bytes resolved above.
            let started = address.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            if started == 0 || errno == EINPROGRESS {
                var item = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = started == 0 ? 1 : poll(&item, 1, Int32(max(1, min(timeout * 1000, 60_000))))
                var problem: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length)
                if ready == 1, problem == 0 { return TCPSocket(descriptor: fd, address: name) }
                lastError = TCPError(call: "connect", address: name, code: ready == 0 ? ETIMEDOUT : (problem != 0 ? problem : errno))
            } else {
                lastError = TCPError(call: "connect", address: name, code: errno)
            }
            _ = Glibc.close(fd)
        }
        throw lastError
    }

    /// Listens on `host:port` (port 0: any free port; see ``localPort``).
    public static func listen(host: String, port: UInt16, backlog: Int32 = 16) throws(TCPError) -> TCPSocket {
        let name = "\(host):\(port)"
        guard let (family, address) = try addresses(host: host, port: port, passive: true).first else {
            throw TCPError(call: "getaddrinfo", address: name, code: EADDRNOTAVAIL)
        }
        let fd = try newSocket(family: family, address: name)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        // C boundary: bind reads the sockaddr bytes resolved above.
        let bound = address.withUnsafeBytes { raw in
            bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw TCPError(call: "bind", address: name, code: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw TCPError(call: "listen", address: name, code: code)
        }
        return TCPSocket(descriptor: fd, address: name)
    }

    /// The local port (after `listen` on port 0, the one chosen).
    public var localPort: UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        // C boundary: getsockname fills the sockaddr storage.
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        // C boundary: the port sits at the same offset in sockaddr_in and sockaddr_in6, in network order.
        let port = withUnsafeBytes(of: &storage) { raw in UInt16(raw[2]) << 8 | UInt16(raw[3]) }
        return port
    }

    /// A waiting connection, non-blocking; nil when none waits.
    public func accept() throws(TCPError) -> TCPSocket? {
        let fd = Glibc.accept(descriptor, nil, nil)
        if fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var on: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            return TCPSocket(descriptor: fd, address: address)
        }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED { return nil }
        throw TCPError(call: "accept", address: address, code: errno)
    }

    /// Reads what is there into `buffer` (up to its size): the byte count,
    /// 0 when the other end closed the connection, nil when nothing waits.
    public func receive(into buffer: inout [UInt8]) throws(TCPError) -> Int? {
        // C boundary: recv writes into the array's storage, at most its count.
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        throw TCPError(call: "recv", address: address, code: errno)
    }

    /// Writes as much of `bytes` as the socket takes now: the count written
    /// (0 when its buffer is full). Never raises SIGPIPE.
    public func send(_ bytes: ArraySlice<UInt8>) throws(TCPError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        // C boundary: send reads the slice's storage.
        let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw TCPError(call: "send", address: address, code: errno)
    }
}
