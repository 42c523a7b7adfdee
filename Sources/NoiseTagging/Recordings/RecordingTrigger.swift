import Foundation

/// Why a recording starts or ends; its ``reason`` is the text in folder names.
public enum RecordingTrigger: Equatable, Sendable {
    /// The process started recording ("App started").
    case appStarted
    /// The app came back after at least an hour in the background ("2.34h in background").
    case background(seconds: Double)
    /// The wall clock passed 00:00 with the recording over 23 hours old ("midnight").
    case midnight
    /// The developer panel opened ("developer panel").
    case developerPanel
    /// A training mode was entered, i.e. re-calibration ("training").
    case training
    /// The client called `startNewRecording(withComments:)` ("client; <comment>").
    case client(comment: String)
    /// The app ended or stopped recording ("App ended").
    case appEnded
    /// The `recordingsEnabled` setting was turned on ("recordings on").
    case switchedOn
    /// The `recordingsEnabled` setting was turned off ("recordings off").
    case switchedOff

    /// The reason text, already safe for a folder name.
    public var reason: String {
        switch self {
        case .appStarted: return "App started"
        case .background(let seconds): return String(format: "%.2fh in background", seconds / 3600)
        case .midnight: return "midnight"
        case .developerPanel: return "developer panel"
        case .training: return "training"
        case .client(let comment):
            let cleaned = comment.trimmingCharacters(in: .whitespacesAndNewlines)
            return RecordingName.sanitized(reason: cleaned.isEmpty ? "client" : "client; " + cleaned)
        case .appEnded: return "App ended"
        case .switchedOn: return "recordings on"
        case .switchedOff: return "recordings off"
        }
    }
}
