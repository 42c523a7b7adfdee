import Foundation
import NoiseTagging

/// The settings a what-if replays under, from `--with-settings FILE` (a JSON
/// object of settings by title, as `settings.json`) and `--set TITLE=VALUE`
/// (repeatable; later ones win). Every title and value is checked as the
/// engine checks it; the error names the file or flag, the title and why.
public struct SettingOverrides: Sendable {
    /// The overriding values by title.
    public private(set) var values: [NoiseTagSettingTitles: NoiseTagSettingValue] = [:]

    /// Reads and checks the overrides.
    public init(file: String?, sets: [String]) throws(ReplayOptionError) {
        let scratch = NoiseTagSettings()
        if let file {
            let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
            do { try scratch.load(from: url) } catch { throw ReplayOptionError("--with-settings: \(error)") }
            for title in scratch.explicitlySet { values[title] = scratch.value(for: title) }
        }
        for text in sets {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ReplayOptionError("--set '\(text)': expected TITLE=VALUE") }
            guard let title = NoiseTagSettingTitles(name: parts[0]) else {
                throw ReplayOptionError("--set '\(text)': no setting is called '\(parts[0])'")
            }
            let value = NoiseTagSettingValue(typed: parts[1], for: title.definition.kind)
            do { try scratch.set(value: value, for: title) } catch { throw ReplayOptionError("--set '\(text)': \(error)") }
            values[title] = scratch.value(for: title)
        }
    }
}
