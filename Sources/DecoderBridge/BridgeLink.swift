import NoiseTagging
import ZeroMQTransport

/// A decoder link with a transport under it — ZeroMQ (``ZeroMQDecoderLink``)
/// or a Utopia hub's TCP stream (``UtopiaTCPDecoderLink``) — that the app
/// closes when it ends and whose counters it can read.
public protocol BridgeLink: WireDecoderLink {
    /// Stops the link's I/O thread, writing what is queued first (briefly).
    func close()
    /// A snapshot of the link's counters.
    var statistics: DecoderLinkStatistics { get }
}

extension ThreadedDecoderLink: BridgeLink {}

/// Opens the right link for an endpoint: `utopia://` reaches a Utopia hub
/// over TCP, anything else is ZeroMQ (`ipc://`, `tcp://`, `inproc://`), so
/// an app switches transports by changing the `decoderEndpoint` string.
public enum BridgeLinks {
    /// The failure to open a link: the endpoint and why.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Resolves `endpoint` (empty: the default `ipc://` socket) and connects.
    /// `settings` gives the reconnection timings (nil: each link's defaults);
    /// `context` the ZeroMQ context for `inproc://` (nil: the link's own);
    /// `curve` the keys for a CurveZMQ `tcp://` decoder (not for `utopia://`).
    public static func connect(endpoint: String, settings: NoiseTagSettings?,
                               context: ZeroMQContext? = nil, curve: CurveClientKeys? = nil) throws(Failure) -> any BridgeLink {
        let resolved: String
        do { resolved = try DecoderEndpoint.resolve(endpoint) } catch { throw Failure(description: "\(error)") }
        if resolved.hasPrefix("utopia://") {
            guard curve == nil else {
                throw Failure(description: "\(resolved): CurveZMQ keys apply to a ZeroMQ tcp:// decoder, not to a Utopia hub")
            }
            do {
                if let settings { return try UtopiaTCPDecoderLink(endpoint: resolved, settings: settings) }
                return try UtopiaTCPDecoderLink(endpoint: resolved)
            } catch {
                throw Failure(description: "cannot open a link to the Utopia hub at \(resolved): \(error)")
            }
        }
        do {
            if let settings, context == nil { return try ZeroMQDecoderLink(endpoint: resolved, settings: settings, curve: curve) }
            return try ZeroMQDecoderLink(endpoint: resolved, context: context, curve: curve)
        } catch {
            throw Failure(description: "cannot connect to the decoder at \(resolved): \(error)")
        }
    }
}
