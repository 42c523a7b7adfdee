/// What a simulated amplifier records: its channels and rate, the display
/// between the stimulus messages and the light, the noise sources and the
/// strength of the visual response. Every field has a sensible default.
///
/// ```swift
/// var settings = SimulationSettings()
/// settings.displayLatency = 0.040      // 40 ms from STIMULUSEVENT timestamp to light
/// settings.snr = 0.5
/// let amplifier = SimulatedAmplifier(settings: settings, subject: SimulatedSubject(seed: 1), seed: 7)
/// ```
public struct SimulationSettings: Sendable, Equatable {
    /// Number of EEG channels.
    public var channels = 8
    /// Samples per second.
    public var sampleRate = 250.0
    /// Seconds from a STIMULUSEVENT's timestamp to the light reaching the eye.
    public var displayLatency = 0.040
    /// Standard deviation (seconds) of a per-frame Gaussian jitter added to the latency.
    public var displayJitter = 0.0
    /// Power ratio of the visual response to the background EEG (1/f plus alpha),
    /// averaged over channels, for a code that flashes half of the time.
    public var snr = 0.05
    /// Mains frequency in Hz (50 or 60).
    public var lineFrequency = 50.0
    /// Mains amplitude relative to the background's standard deviation.
    public var lineAmplitude = 2.0
    /// Alpha-rhythm amplitude relative to the 1/f background.
    public var alphaAmplitude = 0.8
    /// Blinks per second (Poisson).
    public var blinkRate = 0.1
    /// Muscle bursts per second (Poisson).
    public var muscleBurstRate = 0.05
    /// Standard deviation of the slow drift, relative to the background.
    public var driftAmplitude = 3.0
    /// Microvolts per unit of background standard deviation.
    public var microvoltsPerUnit = 10.0

    /// The defaults: 8 channels at 250 Hz, 40 ms display latency, 50 Hz mains.
    public init() {}
}
