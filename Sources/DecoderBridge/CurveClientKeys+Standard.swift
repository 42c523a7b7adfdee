import Foundation
import NoiseTagging
import ZeroMQTransport

extension CurveKeyFolder {
    /// The key folder of the `noisetag` commands: `$NOISETAG_HOME/keys`
    /// (``NoiseTagHome``, default `~/.noisetag/keys`). The decoder's pair is
    /// named `decoder`, the engine's `engine`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> CurveKeyFolder {
        CurveKeyFolder(url: NoiseTagHome.url(environment: environment).appendingPathComponent("keys", isDirectory: true))
    }
}

extension CurveClientKeys {
    /// The engine's keys for a CURVE decoder whose public key is
    /// `serverKey`: the `engine` pair of ``CurveKeyFolder/standard(environment:)``,
    /// generated (mode 0600) on first use. The decoder must list
    /// `keyPair.publicKey` (the first word of `engine.pub`) in its
    /// `authorized_keys`.
    ///
    /// ```swift
    /// let keys = try CurveClientKeys.standard(serverKey: CurveKey(z85: "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"))
    /// print("engine public key: \(keys.keyPair.publicKey.z85)")
    /// NoiseTagging.decoderLink = try ZeroMQDecoderLink(endpoint: "tcp://10.0.0.5:5555", settings: NoiseTagging.settings, curve: keys)
    /// ```
    public static func standard(serverKey: CurveKey,
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws(CurveError) -> CurveClientKeys {
        let pair = try CurveKeyFolder.standard(environment: environment).loadOrCreateKeyPair(named: "engine").keyPair
        return CurveClientKeys(keyPair: pair, serverKey: serverKey)
    }
}
