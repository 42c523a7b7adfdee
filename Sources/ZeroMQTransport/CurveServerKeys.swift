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
    public var keyPair: CurveKeyPair
    /// The client public keys accepted.
    public var authorizedClients: Set<CurveKey>

    /// A server key pair and the clients it accepts.
    public init(keyPair: CurveKeyPair, authorizedClients: Set<CurveKey>) {
        self.keyPair = keyPair
        self.authorizedClients = authorizedClients
    }
}
