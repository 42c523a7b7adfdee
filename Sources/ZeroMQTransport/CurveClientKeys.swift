/// What a CURVE client (the engine's DEALER) needs: its own key pair, which
/// the server must list, and the server's public key, which it checks the
/// server against.
///
/// ```swift
/// let keys = CurveClientKeys(keyPair: try CurveKeyPair.generate(),
///                            serverKey: try CurveKey(z85: "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"))
/// let link = try ZeroMQDecoderLink(endpoint: "tcp://10.0.0.5:5555", curve: keys)
/// ```
public struct CurveClientKeys: Equatable, Sendable {
    /// The client's key pair; the server's authorized keys must list its public key.
    public var keyPair: CurveKeyPair
    /// The server's public key.
    public var serverKey: CurveKey

    /// A client key pair and the server's public key.
    public init(keyPair: CurveKeyPair, serverKey: CurveKey) {
        self.keyPair = keyPair
        self.serverKey = serverKey
    }
}
