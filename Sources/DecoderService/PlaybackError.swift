/// Why a ``RecordingPlayback`` could not run, as one line.
public enum PlaybackError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The recording cannot be played as it is (too few trials, too many classes, …).
    case unplayable(String)
    /// Nothing answered at the endpoint within the seconds given.
    case noDecoder(endpoint: String, seconds: Double)
    /// The decoder stopped answering: nothing heard for the seconds given.
    case decoderGone(endpoint: String, seconds: Double)
    /// The decoder runs its simulated amplifier and ignores streamed EEG.
    case simulatedDecoder(endpoint: String)
    /// The decoder ignores the playback's STIMULUSEVENTs: it saw later stamps
    /// (the playback's started the given seconds before the clock).
    case laterStamps(seconds: Double)
    /// The decoder said it fitted no model (its LOG line).
    case noModel(String)
    /// No CERTAINTYTHRESHOLD came within the seconds given after calibration ended.
    case fitTimeout(seconds: Double)
    /// The socket failed.
    case socket(String)
    /// Stopped by a signal; the decoder was sent a RESET.
    case interrupted

    /// The line to print.
    public var description: String {
        switch self {
        case .unplayable(let reason): return reason
        case .noDecoder(let endpoint, let seconds):
            return "no decoder answered at \(endpoint) within \(Self.seconds(seconds)) s: start one with `noisetag decoder`"
        case .decoderGone(let endpoint, let seconds):
            return "the decoder at \(endpoint) stopped answering (nothing heard for \(Self.seconds(seconds)) s)"
        case .simulatedDecoder(let endpoint):
            return "the decoder at \(endpoint) runs its simulated amplifier (--simulate) and ignores streamed EEG: start it without --simulate"
        case .laterStamps(let seconds):
            return "the decoder ignores the stream's STIMULUSEVENTs: it has seen later timestamps, from another client (a session or "
                + "a stream) sending it stimuli now (a faster stream's stamps start up to \(Int(seconds.rounded(.up))) s in the past); "
                + "stop that client, or stream into a decoder of its own"
        case .interrupted:
            return "stopped by a signal: the decoder was sent a RESET and forgets this stream's calibration"
        case .noModel(let line): return "the decoder fitted no model: \(line)"
        case .fitTimeout(let seconds):
            return "the decoder sent no certainty threshold within \(Self.seconds(seconds)) s of the end of calibration: its fit did not finish"
        case .socket(let reason): return reason
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
