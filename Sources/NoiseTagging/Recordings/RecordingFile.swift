/// The files the engine writes in every recording, with their CSV header
/// rows. Columns and fields are documented in `Protocols/recordings.md`.
public enum RecordingFile: String, CaseIterable, Sendable {
    /// Every engine event, one JSON object per line (`NoiseTagEvent.jsonLine` plus `wall_time`, one encoding: see `EventLine`).
    case events = "events.jsonl"
    /// Every message to and from the decoder, with its raw bytes in hex.
    case decoder = "decoder.csv"
    /// One line per frame: timing, trial, phase and stimulus states.
    case frames = "frames.csv"
    /// One line per press.
    case presses = "presses.csv"
    /// One JSON object per trial, written when it ends.
    case trials = "trials.jsonl"
    /// Every setting when the recording started (the format `NoiseTagSettings.load(from:)` reads).
    case settings = "settings.json"
    /// Free text from the app or the user, written only through `append(text:toFileNamed:)`.
    case feedback = "feedback.txt"

    /// The CSV header row (without line break), nil for non-CSV files.
    public var header: String? {
        switch self {
        case .decoder: return "time,wall_time,direction,id,hex"
        case .frames: return "index,deadline,time,wall_time,missed,trial,phase,states"
        case .presses: return "time,wall_time,trial,control,object_id,source,certainty,target"
        case .events, .trials, .settings, .feedback: return nil
        }
    }

    /// True for names the engine writes itself; clients may not append to them
    /// (``feedback`` is the client's).
    public static func isReserved(_ name: String) -> Bool {
        guard let file = RecordingFile(rawValue: name) else { return false }
        return file != .feedback
    }
}
