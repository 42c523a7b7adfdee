import CZeroMQ

extension ZeroMQSocket {
    /// Makes this socket a CURVE server before it binds: clients must
    /// connect with CURVE and the server's public key, and the ZAP handler
    /// answering `zapDomain` (``ZAPAuthenticator``) decides which client keys
    /// get in. Without a ZAP handler in the context libzmq would let every
    /// CURVE client in, so register one first.
    ///
    /// ```swift
    /// let registration = try ZAPAuthenticator.register(domain: "decoder", authorizedKeys: keys.authorizedClients)
    /// try router.makeCurveServer(keyPair: keys.keyPair, zapDomain: "decoder")
    /// try router.bind("tcp://*:5555")
    /// ```
    public func makeCurveServer(keyPair: CurveKeyPair, zapDomain: String) throws(ZeroMQError) {
        try Self.requireCurve()
        try setOption(ZMQ_CURVE_SERVER, Int32(1))
        try setOption(ZMQ_CURVE_SECRETKEY, bytes: keyPair.secretKey.bytes)
        try setOption(ZMQ_ZAP_DOMAIN, bytes: Array(zapDomain.utf8))
    }

    /// Makes this socket a CURVE client before it connects: it proves
    /// itself with its key pair and talks only to the server holding the
    /// secret of `keys.serverKey`.
    ///
    /// ```swift
    /// let dealer = try ZeroMQSocket(type: .dealer)
    /// try dealer.makeCurveClient(CurveClientKeys(keyPair: pair, serverKey: decoderKey))
    /// try dealer.connect("tcp://10.0.0.5:5555")
    /// ```
    public func makeCurveClient(_ keys: CurveClientKeys) throws(ZeroMQError) {
        try Self.requireCurve()
        try setOption(ZMQ_CURVE_SERVERKEY, bytes: keys.serverKey.bytes)
        try setOption(ZMQ_CURVE_PUBLICKEY, bytes: keys.keyPair.publicKey.bytes)
        try setOption(ZMQ_CURVE_SECRETKEY, bytes: keys.keyPair.secretKey.bytes)
    }

    /// libzmq rejects the CURVE options with a bare EINVAL when it has no
    /// CURVE; say why instead.
    private static func requireCurve() throws(ZeroMQError) {
        guard CurveKeyPair.isAvailable else {
            throw ZeroMQError(call: "zmq_has(\"curve\")", endpoint: nil, code: ENOTSUP,
                              explanation: CurveKeyPair.unavailable.description)
        }
    }
}
