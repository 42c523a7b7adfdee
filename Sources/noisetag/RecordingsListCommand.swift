import ArgumentParser
import Foundation
import JSONSupport
import NoiseTagging

/// `noisetag recordings list [--json]`: every recording, oldest first.
struct RecordingsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recordings: name, start, end (or open/crashed), trials, presses, size.")

    @OptionGroup var recordings: RecordingsOption

    @Flag(help: "Print one JSON array instead of a table.")
    var json = false

    /// One row of the listing (also its JSON form).
    struct Row: Encodable {
        let name: String
        let start: String
        let startReason: String
        @NullWhenAbsent var end: String?
        @NullWhenAbsent var endReason: String?
        let state: String
        let trials: Int
        let presses: Int
        let bytes: Int64

        enum CodingKeys: String, CodingKey {
            case name, start, end, state, trials, presses, bytes
            case startReason = "start_reason", endReason = "end_reason"
        }
    }

    func run() throws {
        let store = try recordings.existingStore()
        let rows = store.recordings().map { entry in
            Row(name: entry.folderName, start: RecordingName.format(entry.name.start),
                startReason: entry.name.startReason, end: entry.name.end.map(RecordingName.format),
                endReason: entry.name.endReason, state: entry.state.rawValue,
                trials: RecordingFileReader(entry.url.appendingPathComponent(RecordingFile.trials.rawValue)).lineCount,
                presses: max(0, RecordingFileReader(entry.url.appendingPathComponent(RecordingFile.presses.rawValue)).lineCount - 1),
                bytes: entry.size)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        let folders = store.foldersHoldingRecordings()
        defer {
            for folder in folders {
                print("folder of recordings (a study session): \(folder.lastPathComponent); list it with --recordings \"\(folder.path)\"")
            }
        }
        guard !rows.isEmpty else {
            print("no recordings in \(store.root.path)")
            return
        }
        let table = [["NAME", "START", "END", "TRIALS", "PRESSES", "SIZE"]] + rows.map { row in
            [row.name, row.start, row.end ?? "open/crashed",
             String(row.trials), String(row.presses), Self.size(row.bytes)]
        }
        let widths = (0..<6).map { column in table.map { $0[column].count }.max() ?? 0 }
        for line in table {
            let cells = line.enumerated().map { column, cell in
                column >= 3 ? String(repeating: " ", count: widths[column] - cell.count) + cell
                    : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            print(cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
    }

    /// Bytes as B, kB, MB or GB (decimal units).
    static func size(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value < 1e3 { return "\(bytes) B" }
        if value < 1e6 { return String(format: "%.1f kB", value / 1e3) }
        if value < 1e9 { return String(format: "%.1f MB", value / 1e6) }
        return String(format: "%.2f GB", value / 1e9)
    }
}
