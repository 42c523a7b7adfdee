/// How a stimulus sequence is turned into events for reconvolution (pyntbci's
/// `event` argument).
public enum EventDefinition: String, Sendable, Codable, CaseIterable {
    /// Two events: the light turning on (rising edge) and off (falling edge);
    /// pyntbci's "refe". Handles flashes of any length.
    case risingFallingEdges = "refe"
    /// One event per flash length, at the flash's start; pyntbci's "duration".
    /// Lengths within one sample of each other count as one (a flash of two
    /// 60 Hz frames lasts 8 or 9 samples at 250 Hz).
    case duration
}
