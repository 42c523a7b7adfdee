/// The signal quality of one channel: a noise-to-signal figure from 0 (good)
/// to 1 (bad), and why a bad channel is bad when the reason is not noise.
public struct ChannelQuality: Equatable, Sendable {
    /// Noise-to-signal, 0 good … 1 bad; never NaN.
    public var quality: Double
    /// Set when the channel is unusable for a reason other than its noise
    /// level: "no data", "flat", "clipped", "not finite", a wrong rate.
    public var problem: String?
}
