import ArgumentParser
import Foundation
import NoiseTagging
import Replay

/// `noisetag bench replay`: records a scripted session of `--seconds`
/// (36 buttons, 60 frames/s, a scripted decoder), then reads and replays
/// it `--rounds` times; reports the median and slowest round against the
/// session's real time, and the time to read the recording alone.
struct BenchReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay speed: a generated recording read and replayed, as a multiple of real time (release build).")

    @OptionGroup var format: BenchOutputOptions

    @Option(parsing: .unconditional, help: "Length of the generated session, seconds.")
    var seconds = 600.0

    @Option(parsing: .unconditional, help: "Buttons in the generated session (2...64: the built-in codebook has 65 codes).")
    var controls = 36

    @Option(parsing: .unconditional, help: "Timed rounds.")
    var rounds = 5

    @Option(help: ArgumentHelp("Also keep the generated recording in this recordings folder.", valueName: "DIR"))
    var keep: String?

    func validate() throws {
        guard seconds.isFinite, (10...7200).contains(seconds) else { throw ValidationError("--seconds \(seconds): must be 10...7200") }
        guard (2...64).contains(controls) else {
            throw ValidationError("--controls \(controls): must be 2...64 (the built-in codebook has 65 codes)")
        }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds \(rounds): must be 1...100") }
    }

    /// What one run measured (`--json` writes it as it is).
    struct Report: BenchReport {
        /// The generated session's length, seconds, and its buttons.
        var seconds: Double
        var controls: Int
        /// Its trials and frames, and the bytes its recording took.
        var trials: Int
        var frames: Int
        var bytes: Int64
        /// Trials whose replay matched the recording to the event.
        var identical: Int
        /// Median seconds to read the recording alone.
        var readMedian: Double
        /// Median and slowest seconds to read and replay it.
        var replayMedian: Double
        var replaySlowest: Double
        /// The session's real time over the median read + replay.
        var realTimeRatio: Double

        func table() -> String {
            [
                "session:        \(Int(seconds)) s, \(controls) buttons, \(trials) trials, \(frames) frames, \(bytes / 1_000_000) MB recorded",
                "check:          \(identical) of \(trials) trials replayed identically",
                String(format: "read only:      median %.3f s", readMedian),
                String(format: "read + replay:  median %.3f s, slowest %.3f s", replayMedian, replaySlowest),
                String(format: "speed:          %.0f× real time (median; the goal is ≥ 300×)", realTimeRatio),
            ].joined(separator: "\n")
        }
    }

    func run() throws {
        let session = try ScriptedSession(seconds: seconds, buttons: controls)
        var reads: [Double] = [], totals: [Double] = []
        var last: ReplayReport?
        for _ in 0..<rounds {
            let start = MonotonicClock.nanoseconds()
            let script = try RecordingScript(folder: session.folder)
            let read = MonotonicClock.nanoseconds()
            let report = RecordingReplay(script: script).run()
            let end = MonotonicClock.nanoseconds()
            reads.append(Double(read - start) / 1e9)
            totals.append(Double(end - start) / 1e9)
            last = report
        }
        let script = try RecordingScript(folder: session.folder)
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let report = Report(seconds: seconds, controls: controls, trials: last?.trials.count ?? 0, frames: script.ticks.count,
                            bytes: RecordingStore.size(of: session.folder), identical: last?.identical ?? 0,
                            readMedian: median(reads), replayMedian: median(totals), replaySlowest: totals.max() ?? 0,
                            realTimeRatio: seconds / median(totals))
        try format.print(report)
        if let keep {
            let root = URL(fileURLWithPath: (keep as NSString).expandingTildeInPath, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: session.folder, to: root.appendingPathComponent(session.folder.lastPathComponent))
            } catch {
                throw CommandFailure("--keep \(keep): cannot copy the recording there: \(error.localizedDescription)")
            }
        }
    }
}
