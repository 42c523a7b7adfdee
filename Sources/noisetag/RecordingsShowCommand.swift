import ArgumentParser
import Decoding
import Foundation
import NoiseTagging

/// `noisetag recordings show NAME [--json]`: what one recording holds.
struct RecordingsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a recording: trials by mode, accuracy, presses by source, missed frames, decoder disconnects, time spans.")

    @OptionGroup var recordings: RecordingsOption

    @Argument(help: "The folder name, a unique start of it, or a path to the folder.")
    var name: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let entry = try recordings.recording(named: name)
        let summary = RecordingSummary(entry)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print(Self.report(summary))
        }
    }

    static func report(_ s: RecordingSummary) -> String {
        func counts(_ d: [String: Int]) -> String {
            d.isEmpty ? "none" : d.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        func ratio(_ n: Int, _ d: Int) -> String {
            d == 0 ? "n/a" : String(format: "%d/%d (%.1f%%)", n, d, 100 * Double(n) / Double(d))
        }
        func seconds(_ v: Double?) -> String { v.map { String(format: "%.3f s", $0) } ?? "n/a" }
        let accuracy = ["training", "Verify"].map { key -> String in
            let a = s.accuracy[key] ?? .init()
            return "\(key): presses \(ratio(a.correct, a.trials)), decoder \(ratio(a.decoderCorrect, a.decoderTrials))"
        }
        var lines = [
            "recording:          \(s.folder)",
            "state:              \(s.state)",
            "started:            \(s.start) (\(s.startReason))",
            "ended:              " + (s.end.map { "\($0) (\(s.endReason ?? ""))" } ?? "open/crashed"),
            "size:               \(RecordingsListCommand.size(s.bytes))",
            "time span:          \(seconds(s.spans.seconds)) engine time, from \(seconds(s.spans.firstTime)) to \(seconds(s.spans.lastTime))",
            "in trials:          \(seconds(s.spans.trialSeconds)), flickering \(seconds(s.spans.flickerSeconds))",
            "trials:             \(s.trials) (\(counts(s.trialsByMode)))",
            "trial endings:      \(counts(s.endings))",
            "accuracy:           \(accuracy[0])",
            "                    \(accuracy[1])",
            "presses:            \(s.presses) (\(counts(s.pressesBySource)))",
            "frames:             \(s.frames), missed \(s.missedFrames)" + (s.missedFrames > 0 ? " (\(s.framesLate) run late, \(s.framesSkipped) skipped to catch up)" : ""),
            "decoder messages:   \(s.decoderMessagesIn) in, \(s.decoderMessagesOut) out (\(s.decoderMessagesUnsent) of them not sent), \(CountText.format(s.decoderDisconnects, "disconnect"))",
            "dropped lines:      \(s.droppedLines)",
            "problems:           \(s.problems)",
        ]
        if let first = s.spans.firstWallTime, let last = s.spans.lastWallTime {
            lines.insert("wall clock:         \(RecordingName.format(Date(timeIntervalSince1970: first))) to \(RecordingName.format(Date(timeIntervalSince1970: last)))", at: 6)
        }
        if s.partialLines > 0 {
            lines.append("cut-off last lines: \(s.partialLines) " + (s.isClosed
                ? "(damage: the recording was closed, so its lines were complete)" : "(the recording ended by a crash)"))
        }
        if s.decoderLogCount > 0 {
            lines.append("decoder said:       " + CountText.format(s.decoderLogCount, "LOG line")
                         + (s.decoderLogCount > s.decoderLog.count ? ", the first \(s.decoderLog.count):" : ":"))
            lines += s.decoderLog.map { "  " + $0 }
        }
        lines += s.inconsistencies.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }
}
