/// What a CURVE server (the decoder's ROUTER) needs: its own key pair, and
/// the public keys of the clients it lets in. Any other client is refused
/// during the handshake by the ZAP handler (``ZAPAuthenticator``).
///
/// ```swift
/// let folder = CurveKeyFolder(url: URL(fileURLWithPath: "/home/ann/.noisetag/keys"))
/// let keys = CurveServerKeys(keyPair: try folder.loadOrCreateKeyPair(named: "decoder").keyPair,
///                            authorizedClients: Set(try folder.authorizedKeys()))
/// let server = try DecoderServer(endpoint: "tcp://*:5555", curve: keys)
/// ```
public struct CurveServerKeys: Equatable, Sendable {
    /// The server's key pair; clients connect with its public key.
    ///
    /// ```swift
    /// print("engines connect with --decoder-key '\(keys.keyPair.publicKey.z85)'")
    /// ```
    public var keyPair: CurveKeyPair
    /// The client public keys accepted.
    ///
    /// ```swift
    /// keys.authorizedClients.insert(try CurveKey(z85: engineLine))
    /// ```
    public var authorizedClients: Set<CurveKey>

    /// A server key pair and the clients it accepts.
    ///
    /// ```swift
    /// let keys = CurveServerKeys(keyPair: try CurveKeyPair.generate(), authorizedClients: [engine.publicKey])
    /// ```
    public init(keyPair: CurveKeyPair, authorizedClients: Set<CurveKey>) {
        self.keyPair = keyPair
        self.authorizedClients = authorizedClients
    }
}

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
    ///
    /// ```swift
    /// print("add to the decoder's authorized_keys: \(keys.keyPair.publicKey.z85)")
    /// ```
    public var keyPair: CurveKeyPair
    /// The server's public key.
    ///
    /// ```swift
    /// keys.serverKey = try CurveKey(contentsOf: URL(fileURLWithPath: "decoder.pub"))
    /// ```
    public var serverKey: CurveKey

    /// A client key pair and the server's public key.
    ///
    /// ```swift
    /// let keys = CurveClientKeys(keyPair: pair, serverKey: try CurveKey(z85: printedByTheDecoder))
    /// ```
    public init(keyPair: CurveKeyPair, serverKey: CurveKey) {
        self.keyPair = keyPair
        self.serverKey = serverKey
    }
}
