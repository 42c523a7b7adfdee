/// The latest stretch of EEG and what the decoder makes of it, channel by
/// channel: what a signal view draws. A plain value the decoder side fills
/// a few times a second and the display reads.
///
/// Each channel holds its most recent samples (oldest first, µV, filtered or
/// raw — a few seconds), its noise-to-signal ratio n / s (nil when unknown;
/// SIGNALQUALITY's noise fraction converts with ``noiseToSignal(noiseFraction:)``)
/// and, when the channel is bad for a reason worth naming, that reason. ``sampleCount`` counts every sample the stream has
/// delivered up to the last one held, so two snapshots of the same stream
/// can be told apart and placed on one time grid.
///
/// ```swift
/// var snapshot = SignalSnapshot(sampleRate: 250, sampleCount: 12_500, channels: [
///     SignalSnapshot.Channel(name: "Cz", samples: recent[0].suffix(1_250), quality: 0.3),
///     SignalSnapshot.Channel(name: "Pz", samples: recent[1].suffix(1_250), quality: 1.4,
///                            reason: "line noise"),
/// ])
/// snapshot.channels[1].quality = 0.8          // a new SIGNALQUALITY arrived
/// if snapshot.isEmpty { /* nothing to draw yet */ }
/// ```
public struct SignalSnapshot: Equatable, Sendable {
    /// One channel's recent samples and quality.
    public struct Channel: Equatable, Sendable {
        /// The channel's label ("Cz", "O1", or "3" when the amplifier names none).
        public var name: String
        /// The most recent samples, oldest first, in µV; may hold NaN or
        /// infinities when the amplifier sent them.
        public var samples: [Double]
        /// Noise-to-signal ratio n / s (≤ 0.5 good, ≤ 1 fair, above bad; at
        /// most ``SignalSnapshot/noiseToSignalLimit``); nil when unknown.
        /// SIGNALQUALITY carries the noise fraction n / (n + s) instead:
        /// convert it with ``SignalSnapshot/noiseToSignal(noiseFraction:)``.
        ///
        /// ```swift
        /// for (c, figure) in message.quality.enumerated() where c < snapshot.channels.count {
        ///     snapshot.channels[c].quality = SignalSnapshot.noiseToSignal(noiseFraction: Double(figure))
        /// }
        /// ```
        public var quality: Double?
        /// Why the channel is bad, when there is a reason to name ("flat", "line noise").
        public var reason: String?

        /// A channel from its parts.
        public init<Samples: Sequence<Double>>(name: String, samples: Samples, quality: Double? = nil,
                                               reason: String? = nil) {
            self.name = name
            self.samples = Array(samples)
            self.quality = quality
            self.reason = reason
        }
    }

    /// Samples per second of every channel.
    public var sampleRate: Double
    /// Samples the stream has delivered up to the last one held (0 when not
    /// known): it grows as the window moves on.
    public var sampleCount: Int
    /// The channels, in the amplifier's order.
    public var channels: [Channel]

    /// A snapshot from its parts.
    public init(sampleRate: Double, sampleCount: Int = 0, channels: [Channel]) {
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
        self.channels = channels
    }

    /// No channels, or no samples in any: nothing has arrived yet.
    public var isEmpty: Bool { channels.allSatisfy { $0.samples.isEmpty } }

    /// The largest noise-to-signal ratio a snapshot reports: a noise
    /// fraction of 10/11 or more (a channel that is all noise, or unusable
    /// for a named reason) reads as this, "≥10" in the signal view.
    public static let noiseToSignalLimit = 10.0

    /// The noise-to-signal ratio n / s of a SIGNALQUALITY figure, which is
    /// the noise fraction q = n / (n + s) from 0 (good) to 1 (bad): q / (1 − q),
    /// at most ``noiseToSignalLimit``. So q ≤ 1/3 is good (ratio ≤ 0.5),
    /// q ≤ 1/2 fair (ratio ≤ 1). A figure outside 0 … 1 is clamped into it;
    /// NaN (a figure that means nothing) gives the limit.
    ///
    /// ```swift
    /// SignalSnapshot.noiseToSignal(noiseFraction: 0.2)   // 0.25
    /// SignalSnapshot.noiseToSignal(noiseFraction: 0.5)   // 1.0
    /// SignalSnapshot.noiseToSignal(noiseFraction: 1)     // 10.0, the limit
    /// ```
    public static func noiseToSignal(noiseFraction q: Double) -> Double {
        guard !q.isNaN else { return noiseToSignalLimit }
        let fraction = min(max(q, 0), 1)
        let limitFraction = noiseToSignalLimit / (noiseToSignalLimit + 1)
        return fraction >= limitFraction ? noiseToSignalLimit : fraction / (1 - fraction)
    }

    /// A snapshot with no channels: before the first data arrives.
    public static let empty = SignalSnapshot(sampleRate: 0, channels: [])
}
