import DecoderService
import Foundation
import JSONSupport

/// A session folder's `session.json`: who, which protocol (kept whole, so
/// that `--resume` and the report need nothing else), when, and how the
/// session was run. Written once when the session starts.
public struct SessionManifest: Sendable, Equatable, Codable {
    /// `noisetag-session/1`.
    public var format = SessionManifest.currentFormat
    /// The participant's identifier.
    public var participant: String
    /// The protocol file's path as given.
    public var protocolFile: String
    /// The protocol as read.
    public var `protocol`: JSONValue
    /// Unix seconds the session started.
    public var startedWallTime: Double
    /// The simulated participant's seed (questionnaire answers, EEG).
    public var seed: UInt64
    /// True when a simulated participant took part (headless).
    public var simulated: Bool
    /// The simulated EEG's SNR, when simulated.
    public var snr: Double?
    /// The embedded decoder's settings, when `session run --decoder-settings`
    /// gave a file; absent, the defaults. Its `calibrationFolder` is always
    /// nil: a session's calibrations stay in its folder.
    public var decoderSettings: DecoderServerSettings?

    /// A manifest for a new session.
    public init(participant: String, protocolFile: String, protocol: JSONValue, startedWallTime: Double, seed: UInt64,
                simulated: Bool, snr: Double?, decoderSettings: DecoderServerSettings? = nil) {
        self.participant = participant
        self.protocolFile = protocolFile
        self.protocol = `protocol`
        self.startedWallTime = startedWallTime
        self.seed = seed
        self.simulated = simulated
        self.snr = snr
        self.decoderSettings = decoderSettings
    }

    /// The format this version writes and reads.
    public static let currentFormat = "noisetag-session/1"

    enum CodingKeys: String, CodingKey {
        case format, participant, protocolFile, `protocol`, seed, simulated, snr, decoderSettings
        case startedWallTime = "started_wall_time"
    }
}
