import ArgumentParser
import Foundation
import IOThreads
import LabFormats
import UtopiaProtocol

/// `noisetag dataset inspect`: what a recording holds before any trial is
/// cut (streams, channels, rate, length, markers), to choose the options of
/// `noisetag dataset import` (Protocols/dataset-import.md).
struct DatasetInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a recording's streams, channels, rate, length and markers, to choose the options of dataset import.")

    @Argument(help: ArgumentHelp("The recording: a file, or a BIDS folder.", valueName: "FILE"))
    var file: String

    @OptionGroup var recordingFile: RecordingFileOptions

    @Flag(help: "Print one JSON object instead of text (every marker group, however many).")
    var json = false

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=+,@%".contains($0) }
        return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Marker groups printed as text; `--json` gives them all.
    static let printedGroups = 40

    func validate() throws {
        if let kind = recordingFile.kind(of: file) { try recordingFile.check(kind) }
    }

    func run() throws {
        var inventory: RecordingInventory
        do {
            inventory = try RecordingInventory.read(URL(fileURLWithPath: file), format: recordingFile.format, stream: recordingFile.stream, markers: recordingFile.markers)
        } catch {
            throw CommandFailure("\(error)")
        }
        var chosen = recordingFile
        if let warning = recordingFile.formatWarning(read: inventory.format) {
            inventory.warnings.insert(warning, at: 0)
            chosen.format = nil  // the suggested import needs no --format: the header says
        }
        let text: String
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            text = String(decoding: try encoder.encode(inventory), as: UTF8.self)
        } else {
            text = Self.report(inventory, file: file, chosen: chosen)
        }
        // Written unbuffered: what could be read comes before the line that says what could not.
        FileHandle.standardOutput.writeIfOpen(Data((text + "\n").utf8))
        if let problem = inventory.problem { throw CommandFailure(problem) }
    }

    /// The inventory as the text `inspect` prints.
    /// `chosen`: the options the inspection was given, which the suggested import repeats.
    static func report(_ inventory: RecordingInventory, file: String, chosen options: RecordingFileOptions = RecordingFileOptions()) -> String {
        var lines = ["\(file): \(inventory.format.rawValue)" + (inventory.source.map { ", \($0)" } ?? "")]
        if !inventory.streams.isEmpty {
            lines.append("streams:")
            let width = inventory.streams.map(\.name.count).max() ?? 0
            for s in inventory.streams {
                let rate = s.nominalRate > 0 ? String(format: "%g Hz", s.nominalRate) : "irregular"
                let role = s.role.map { $0 == "eeg" ? "  ← the EEG" : "  ← the markers" } ?? ""
                lines.append("  \(s.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(s.type), \(s.channels) ch \(s.format), \(rate), \(s.samples) samples\(role)")
            }
        }
        if let rate = inventory.sampleRate {
            let names = inventory.channels.prefix(16).joined(separator: ", ") + (inventory.channels.count > 16 ? ", …" : "")
            let length = inventory.samples.map { ", \(String(format: "%.1f", Double($0) / rate)) s (\($0) samples)" } ?? ""
            lines.append("EEG: \(inventory.channels.count) channels at \(String(format: "%.3f", rate)) Hz\(length): \(names)")
        }
        if let trials = inventory.trials, let classes = inventory.classes, let seconds = inventory.trialSeconds {
            lines.append("trials: \(trials) of \(String(format: "%.2f", seconds)) s, \(classes) classes")
        }
        if inventory.trials == nil, inventory.problem == nil {
            let distinct = inventory.markers.reduce(0) { $0 + $1.distinct }
            let shapes = inventory.markers.contains { $0.distinct > 1 } ? ", grouped by shape: <n> stands for a number" : ""
            lines.append("markers: \(inventory.markerCount)" + (inventory.markerCount > 0 ? " (\(distinct) text\(distinct == 1 ? "" : "s")\(shapes))" : ""))
            if !inventory.markers.isEmpty {
                lines.append("   count    first s     last s  marker")
                for g in inventory.markers.prefix(printedGroups) {
                    let texts = g.distinct > 1 ? " (\(g.distinct) texts: \(g.examples.joined(separator: ", "))\(g.distinct > g.examples.count ? ", …" : ""))" : ""
                    lines.append(String(format: "%8d %10.3f %10.3f  ", g.count, g.first, g.last) + (g.text.isEmpty ? "\"\" (empty)" : g.text) + texts)
                }
                if inventory.markers.count > printedGroups {
                    lines.append("  … and \(inventory.markers.count - printedGroups) more (--json lists every one)")
                }
            }
        }
        lines += inventory.warnings.map { "warning: \($0)" }
        if inventory.problem == nil {
            // The stream choices this inspection needed, the import needs too.
            let chosen = [("--format", options.format?.rawValue), ("--stream", options.stream), ("--markers", options.markers)]
                .compactMap { option, value in value.map { " \(option) \(Self.shellQuoted($0))" } }.joined()
            lines.append(inventory.trials == nil
                ? "import: noisetag dataset import \(Self.shellQuoted(file))\(chosen) --out DIR --trial-start REGEX --label REGEX --codes FILE (Protocols/dataset-import.md)"
                : "import: noisetag dataset import \(Self.shellQuoted(file))\(chosen) --out DIR (it carries its own trials)")
        }
        return lines.map(\.escapingControlCharacters).joined(separator: "\n")
    }
}
