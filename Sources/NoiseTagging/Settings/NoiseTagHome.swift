import Foundation

/// The folder where noisetag keeps what it writes for the user:
/// `$NOISETAG_HOME`, or `~/.noisetag` when NOISETAG_HOME is unset or empty.
/// Recordings go in its `recordings` folder, CURVE key files in `keys`.
public enum NoiseTagHome {
    /// `$NOISETAG_HOME` (a leading `~` expanded), else `$HOME/.noisetag`.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let configured = environment["NOISETAG_HOME"], !configured.isEmpty {
            return URL(fileURLWithPath: (configured as NSString).expandingTildeInPath, isDirectory: true)
        }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: user, isDirectory: true).appendingPathComponent(".noisetag", isDirectory: true)
    }
}
