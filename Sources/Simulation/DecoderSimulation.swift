/// The decoder's built-in simulated amplifier: who is recorded, how strongly
/// the screen shows in the EEG, and where the simulated user looks.
public struct DecoderSimulation: Equatable, Sendable {
    /// The recording: channels, rate, display latency and jitter, SNR, noise sources.
    public var amplifier = SimulationSettings()
    /// Seeds the subject (kernels, patterns) and the noise.
    public var seed: UInt64 = 1
    /// Where the user looks.
    public var gaze: GazeScript = .target
    /// Samples per DATAPACKET the simulated amplifier sends itself.
    public var packetSamples = 25

    /// A simulation at `snr` (power ratio) for subject `seed`, looking as `gaze` says.
    public init(snr: Double = 0.05, seed: UInt64 = 1, gaze: GazeScript = .target) {
        amplifier.snr = snr
        self.seed = seed
        self.gaze = gaze
    }
}
