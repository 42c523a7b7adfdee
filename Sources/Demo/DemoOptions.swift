import Foundation
import DecoderService
import NoiseTagging
import ZeroMQTransport

/// How a demo session is set up: which decoder, which user, what to type.
///
/// ```swift
/// var options = DemoOptions()
/// options.goal = "YES"
/// options.simulatedUser = false          // a person with an amplifier streamer is the user
/// let session = try DemoSession(options: options)
/// ```
public struct DemoOptions: Sendable {
    /// The text the user spells (letters and spaces).
    public var goal = "HELLO WORLD"
    /// An external decoder's endpoint; nil runs the reference decoder in this process.
    public var externalDecoder: String?
    /// With an external decoder: talk CurveZMQ with these keys (nil: no CURVE).
    public var externalDecoderCurve: CurveClientKeys?
    /// With the embedded decoder: true simulates the amplifier and the user;
    /// false binds the decoder on `embeddedEndpoint` for an acquisition client (a real amplifier streamer).
    public var simulatedUser = true
    /// Where the embedded decoder listens without a simulated user (default: the per-user ipc:// socket).
    public var embeddedEndpoint: String?
    /// Simulated SNR (power ratio).
    public var snr = 0.05
    /// Simulated subject and noise seed.
    public var seed: UInt64 = 1
    /// Simulated display latency, s.
    public var displayLatency = 0.04
    /// The embedded decoder's settings (its mains frequency also the
    /// simulated amplifier's); the demo sets their calibration folder (under
    /// ``recordings``, unless they name one) and simulation itself.
    public var decoderSettings = DecoderServerSettings()
    /// Seconds of signal check.
    public var signalCheckSeconds = 6.0
    /// Seconds the calibration results stay on screen.
    public var resultsSeconds = 5.0
    /// Type from the first trial without calibration (ZeroTrain mode).
    public var zeroTrain = false
    /// Where recordings (and the decoder's calibration datasets) go.
    public var recordings: RecordingStore = .standard

    /// The default demo: embedded decoder, simulated user, HELLO WORLD.
    public init() {}

    /// Why `text` cannot be a goal (only letters A–Z and spaces can be typed), nil when it can.
    public static func problem(withGoal text: String) -> String? {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return "the goal is empty" }
        if let bad = text.uppercased().first(where: { !(("A"..."Z").contains($0) || $0 == " ") }) {
            return "'\(bad)' is not on the keyboard (letters A-Z and spaces only)"
        }
        return nil
    }
}
