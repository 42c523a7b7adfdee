import Foundation
import Synchronization
import ZeroMQTransport

extension DecoderServer {
    /// Before the bind: serves a fresh ZAP domain with the authorized client
    /// keys in `context`'s ZAP handler and makes `socket` a CURVE server in
    /// that domain. Refused clients are told to `log`, each key at most once
    /// a minute (a refused client retries every reconnect interval).
    static func secure(_ socket: ZeroMQSocket, with keys: CurveServerKeys, endpoint: String, context: ZeroMQContext,
                       log: (@Sendable (String) -> Void)?) throws(ZeroMQError) -> ZAPAuthenticator.Registration {
        guard !endpoint.hasPrefix("inproc://") else {
            throw ZeroMQError(call: "zmq_bind", endpoint: endpoint, code: EINVAL,
                              explanation: "CURVE needs a tcp:// or ipc:// endpoint; inproc:// has no security handshake")
        }
        let refusals = RefusalLog()
        let domain = "noisetag-decoder-\(UUID().uuidString)"
        let registration = try ZAPAuthenticator.register(domain: domain, authorizedKeys: keys.authorizedClients,
                                                         context: context) { decision in
            guard !decision.accepted, let log, refusals.shouldLog(decision.clientKey) else { return }
            let who = decision.clientKey.map { "client key \($0.z85)" } ?? "a \(decision.mechanism) client"
            log("decoder: CURVE refused \(who) from \(decision.address): \(decision.reason)")
        }
        try socket.makeCurveServer(keyPair: keys.keyPair, zapDomain: domain)
        return registration
    }

    /// When each refused key was last logged.
    private final class RefusalLog: Sendable {
        private let lastLogged = Mutex<[CurveKey?: Date]>([:])

        func shouldLog(_ key: CurveKey?) -> Bool {
            lastLogged.withLock { lastLogged in
                let now = Date()
                if let last = lastLogged[key], now.timeIntervalSince(last) < 60 { return false }
                lastLogged[key] = now
                return true
            }
        }
    }
}
