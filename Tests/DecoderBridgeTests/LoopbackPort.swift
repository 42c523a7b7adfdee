import ZeroMQTransport

/// A TCP port on 127.0.0.1 that nothing listens on: the kernel picks one for
/// a listener that is closed at once.
func freeLoopbackPort() throws -> Int {
    let listener = try TCPSocket.listen(host: "127.0.0.1", port: 0)
    defer { listener.close() }
    return Int(listener.localPort!)
}
