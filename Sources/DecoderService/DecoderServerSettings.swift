import Decoding
import Foundation
import Simulation

/// How the live decoder behaves: its timings, where calibrations are saved,
/// and whether it simulates its own amplifier.
///
/// ```swift
/// var settings = DecoderServerSettings()
/// settings.predictionInterval = 0.1
/// settings.calibrationFolder = URL(fileURLWithPath: "/home/me/.noisetag/recordings/decoder-calibrations")
/// settings.simulation = DecoderSimulation(snr: 0.05, seed: 1, gaze: .target)
/// let server = try DecoderServer(endpoint: "ipc:///tmp/noisetag-1000/decoder.sock", settings: settings)
/// ```
public struct DecoderServerSettings: Equatable, Sendable {
    /// Seconds between PREDICTEDTARGETPROB/DIST updates during a prediction trial.
    public var predictionInterval = 0.1
    /// Seconds between SIGNALQUALITY messages.
    public var qualityInterval = 0.5
    /// Seconds between heartbeats to each peer.
    public var heartbeatInterval = 1.0
    /// Seconds of silence after which a peer is forgotten.
    public var peerTimeout = 3.0
    /// The error rate the recommended certainty threshold aims at.
    public var targetErrorRate = 0.05
    /// False presses per minute the recommended threshold allows while the
    /// user looks at none of the buttons, judged on idle surrogates of the
    /// calibration (``CalibratedDecoder``): the lower, the stricter the
    /// threshold and the later the presses.
    public var idlePressesPerMinute = 0.1
    /// Mains frequency of the notch filter and the signal-quality estimate,
    /// Hz. Setting it (a settings file's `lineFrequency`, `--line-frequency`)
    /// fixes it; by default it is the frequency assumed until the mains is
    /// found (``findsLineFrequency``).
    public var lineFrequency = 50.0 { didSet { findsLineFrequency = false } }
    /// True (until ``lineFrequency`` is set) to find the mains, 50 or 60 Hz,
    /// in the first seconds of each EEG stream and notch it with its
    /// harmonics, as `decoder evaluate` does in a recording; the notch
    /// stays at ``lineFrequency`` where none stands out.
    public var findsLineFrequency = true
    /// The channels' re-reference before the filter (none: as recorded).
    public var reference = ChannelReference.asRecorded
    /// Prediction trials a decoder without a calibration learns unsupervised
    /// (zero training) before it fits the supervised decoder on the labels
    /// it learned (the engine's `nZeroTrainTrials`; default 10).
    public var zeroTrainTrials = 10
    /// Once a supervised model exists, it is fitted again after every this
    /// many pressed prediction trials, each learned with the pressed object
    /// as its label (0: never; default 10).
    public var adaptEvery = 10
    /// Where each calibration is saved as a trials dataset (`Protocols/dataset.md`); nil saves none.
    public var calibrationFolder: URL?
    /// The built-in simulated amplifier; nil takes EEG from acquisition clients.
    public var simulation: DecoderSimulation?

    /// The defaults: predictions every 100 ms, quality at 2 Hz, heartbeats every second, 3 s timeout.
    public init() {}
}
