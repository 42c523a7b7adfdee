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
