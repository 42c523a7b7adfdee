import ArgumentParser
import Foundation
import IOThreads
import NoiseTagging

/// `noisetag bench terminal [--controls 36,255] [--frames N] [--output null|pty] [--json]`:
/// time to draw and encode the terminal screen of brain buttons, bytes per
/// frame against the floor the changed cells need, and the write.
struct BenchTerminalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Time drawing, encoding and writing terminal frames of brain buttons.",
        discussion: """
            Each sample is one frame of the standard button screen (header, a grid of \
            labelled 8×3 blocks, footer) in 24-bit colour: "render" is drawing plus \
            encoding the changed cells into one buffer, "write" its one write(2) to \
            /dev/null or a raw pseudo-terminal (read empty after each frame, untimed). \
            Patterns: all (every button changes colour), none (nothing changes), flicker \
            (a Test-mode trial of the engine, modulated Gold codes of degree 9). "floor" is the UTF-8 bytes of the changed \
            cells' characters alone, which any encoding needs; cursor moves and colours \
            come on top. Build with -c release.
            """)

    @OptionGroup var format: BenchOutputOptions

    @Option(parsing: .unconditional, help: "Timed frames per row.")
    var frames = 20_000

    @Option(parsing: .unconditional, help: "Untimed frames first.")
    var warmup = 1_000

    @Option(help: ArgumentHelp("Control counts, comma separated (1...255).", valueName: "LIST"))
    var controls = "36,255"

    @Option(help: "Where frames go: null (/dev/null) or pty.")
    var output = "pty"

    func validate() throws {
        guard frames >= 1 else { throw ValidationError("--frames: must be at least 1, got \(frames)") }
        guard warmup >= 0 else { throw ValidationError("--warmup: must be 0 or more, got \(warmup)") }
        _ = try counts()
        guard TerminalBenchmarkSink.Kind(rawValue: output) != nil else {
            throw ValidationError("--output: expected null or pty, got \"\(output)\"")
        }
    }

    func run() throws {
        let sink: TerminalBenchmarkSink
        do { sink = try TerminalBenchmarkSink(kind: TerminalBenchmarkSink.Kind(rawValue: output)!) } catch {
            FileHandle.standardError.writeIfOpen(Data("noisetag bench terminal: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let codebook = try BenchCodebook.writeTemporaryFile()
        defer { try? FileManager.default.removeItem(atPath: codebook) }
        let overhead = MonotonicClock.readingCost()
        var results: [TerminalBenchmarkResult] = []
        for count in try counts() {
            for pattern in TerminalBenchmark.Pattern.allCases {
                results.append(try TerminalBenchmark(controls: count, pattern: pattern, frames: frames, warmup: warmup,
                                                     output: sink, codebookFile: codebook).run())
            }
        }
        let report = Report(build: BenchFramesReport.buildConfiguration, output: output, frames: frames,
                            timerOverheadNs: overhead, results: results)
        try format.print(report)
    }

    private func counts() throws -> [Int] { try Report.controlCounts(controls, example: "36,255") }

    /// What the command prints.
    struct Report: BenchReport {
        let benchmark = "terminal"
        let build: String
        let output: String
        let frames: Int
        let timerOverheadNs: UInt64
        let results: [TerminalBenchmarkResult]

        func table() -> String {
            let cell = Self.cell
            func micro(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1000) }
            var lines = [
                "terminal frames: draw + encode (render) and one write(2) to \(output), 24-bit colour, \(build) build",
                "\(frames) timed frames per row; timer overhead \(timerOverheadNs) ns",
                "",
                [cell("controls", 8), cell("pattern", 7), cell("screen", 7), cell("cells", 6), cell("bytes", 7),
                 cell("floor", 6), cell("render p50 µs", 13), cell("p99 µs", 7), cell("write p50 µs", 12),
                 cell("p99 µs", 7)].joined(separator: "  "),
            ]
            for r in results {
                lines.append([cell("\(r.controls)", 8), cell(r.pattern, 7), cell("\(r.columns)×\(r.rows)", 7),
                              cell(String(format: "%.0f", r.changedCells), 6), cell(String(format: "%.0f", r.bytesPerFrame), 7),
                              cell(String(format: "%.0f", r.floorBytesPerFrame), 6), cell(micro(r.render.medianNs), 13),
                              cell(micro(r.render.p99Ns), 7), cell(micro(r.write.medianNs), 12), cell(micro(r.write.p99Ns), 7)]
                    .joined(separator: "  "))
            }
            if build == "debug" { lines += ["", "note: debug build; use swift build -c release for real figures"] }
            return lines.joined(separator: "\n")
        }
    }
}
