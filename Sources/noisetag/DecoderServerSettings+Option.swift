import DecoderService
import Foundation

extension DecoderServerSettings {
    /// The decoder settings file an option names (`~` expanded); a file that
    /// cannot be used is a one-line failure (exit 1, as for an engine
    /// settings file) naming the option, the file and why.
    static func load(_ path: String, for option: String) throws -> DecoderServerSettings {
        do { return try DecoderServerSettings(contentsOf: URL(fileURLWithPath: (path as NSString).expandingTildeInPath)) } catch {
            throw CommandFailure("\(option): \(error)")
        }
    }
}
