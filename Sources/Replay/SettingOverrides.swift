import Foundation
import NoiseTagging

/// The settings a what-if replays under, from `--with-settings FILE` (a JSON
/// object of settings by title, as `settings.json`) and `--set TITLE=VALUE`
/// (repeatable, once per title; a `--set` wins over the file). Every title
/// and value is checked as the engine checks it; the error names the file
/// or flag, the title and why.
public struct SettingOverrides: Sendable {
    /// The overriding values by title.
    public private(set) var values: [NoiseTagSettingTitles: NoiseTagSettingValue] = [:]
    /// What the report should say of them: settings the file held that a
    /// replay controls itself (left out), what-ifs a replay cannot answer.
    public private(set) var notes: [String] = []

    /// Settings a replay controls itself, and why: no what-if may set them.
    public static let controlledByReplay: [NoiseTagSettingTitles: String] = [
        .mode: "replay follows the recording's own mode changes",
        .recordingsEnabled: "a replay never records",
        .noiseTaggingPrintsToTheConsole: "a replay never prints",
    ]

    /// Settings that act only between trials: each trial replays from its
    /// logged start, so no outcome can change with them.
    public static let betweenTrials: Set<NoiseTagSettingTitles> = [.timeInBetweenTrials, .feedbackDuration]

    /// The note for a what-if on one of ``betweenTrials``.
    public static func betweenTrialsNote(_ title: NoiseTagSettingTitles) -> String {
        "\(title.rawValue) acts only between trials, and replay starts each trial at its logged start: no outcome can change with it"
    }

    /// Reads and checks the overrides.
    public init(file: String?, sets: [String]) throws(ReplayOptionError) {
        let scratch = NoiseTagSettings()
        if let file {
            let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
            do { try scratch.load(from: url) } catch { throw ReplayOptionError("--with-settings: \(error)") }
            for title in scratch.explicitlySet where Self.controlledByReplay[title] == nil { values[title] = scratch.value(for: title) }
            let dropped = scratch.explicitlySet.filter { Self.controlledByReplay[$0] != nil }.map(\.rawValue).sorted()
            if !dropped.isEmpty {
                notes.append("--with-settings: \(dropped.joined(separator: ", ")) left out: a replay follows the recording's modes and never records or prints")
            }
        }
        var given: [NoiseTagSettingTitles: String] = [:]
        for text in sets {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw ReplayOptionError("--set '\(text)': expected TITLE=VALUE") }
            guard let title = NoiseTagSettingTitles(name: parts[0]) else {
                throw ReplayOptionError("--set '\(text)': no setting is called '\(parts[0])'")
            }
            if let why = Self.controlledByReplay[title] { throw ReplayOptionError("--set '\(text)': \(why): \(title.rawValue) cannot be a what-if") }
            if let earlier = given[title] { throw ReplayOptionError("--set '\(text)': \(title.rawValue) is already set ('\(earlier)'): give it once") }
            given[title] = text
            let value = NoiseTagSettingValue(typed: parts[1], for: title.definition.kind)
            do { try scratch.set(value: value, for: title) } catch { throw ReplayOptionError("--set '\(text)': \(error)") }
            values[title] = scratch.value(for: title)
        }
        // Given by --set or in the --with-settings file alike.
        for title in Self.betweenTrials.sorted(by: { $0.rawValue < $1.rawValue }) where values[title] != nil {
            notes.append(Self.betweenTrialsNote(title))
        }
    }
}
