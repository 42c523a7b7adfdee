import ArgumentParser
import Foundation
import NoiseTagging

/// `noisetag bench frames [--json] [--frames N] [--paths engine,recorded,full]`:
/// engine time per flicker frame for several control counts, on the engine
/// alone and on the path that runs in an app (recorder on, ZeroMQ link to a
/// local decoder); median, p99 and p99.9 in nanoseconds.
struct BenchFramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Time the engine's work per flicker frame.",
        discussion: """
            Each sample is one controller.tick(frame:) during a Test-mode flicker on a \
            virtual clock. Path "engine": every control's state and colour, the STIMULUSEVENT \
            and its encoding. Path "recorded": the same with a recorder writing into a temporary \
            folder. Path "full": the recorder and a ZeroMQ link to a decoder on a local ipc:// socket that answers with \
            heartbeats (frame and decoder lines, hand-off to the I/O thread). Timed with CLOCK_MONOTONIC; \
            percentiles from an HdrHistogram (3 significant digits). Build with \
            -c release: a debug build measures the debug build. The codebook (--codebook, by \
            default the modulated Gold family of a degree-9 preferred pair, 513 codes, \
            written to a temporary file) is loaded through the filenameNoiseTags setting.
            """
    )

    @OptionGroup var format: BenchOutputOptions

    @Option(parsing: .unconditional, help: "Timed frames per control count.")
    var frames = 100_000

    @Option(parsing: .unconditional, help: "Untimed frames before timing starts.")
    var warmup = 2_000

    @Option(help: ArgumentHelp("Control counts, comma separated (1...255).", valueName: "LIST"))
    var controls = "9,36,64,255"

    @Option(help: ArgumentHelp("Paths to time, comma separated: engine, recorded, full.", valueName: "LIST"))
    var paths = "engine,recorded,full"

    @Option(help: ArgumentHelp("Microseconds between the starts of timed ticks (0: back to back, as the SDK script runs).",
                               valueName: "US"))
    var pace = 0

    @Option(help: ArgumentHelp("Codebook file to flicker (default: modulated Gold codes of degree 9, 513 codes).",
                               valueName: "FILE"))
    var codebook: String?

    func validate() throws {
        guard frames >= 1 else { throw ValidationError("--frames: must be at least 1, got \(frames)") }
        guard warmup >= 1 else { throw ValidationError("--warmup: must be at least 1, got \(warmup)") }
        _ = try controlCounts()
        _ = try pathList()
        guard pace >= 0 else { throw ValidationError("--pace: must be 0 or more microseconds, got \(pace)") }
    }

    func run() throws {
        let counts = try controlCounts()
        let path = try codebook ?? BenchCodebook.writeTemporaryFile()
        defer { if codebook == nil { try? FileManager.default.removeItem(atPath: path) } }
        let book = try CodebookFile(contentsOfFile: path).codebook
        guard let most = counts.max(), book.count >= most else {
            throw CommandFailure("codebook \(path): \(book.count) codes, fewer than the \(counts.max() ?? 0) controls asked for")
        }
        let overhead = MonotonicClock.readingCost()
        let results = try pathList().flatMap { benchPath in
            try counts.map { count in
                try FrameBenchmark(controls: count, frames: frames, warmup: warmup, codebookFile: path, path: benchPath,
                               paceMicroseconds: pace).run()
            }
        }
        let source = codebook ?? "mgold --poly \(BenchCodebook.polyArgument)"
        let report = BenchFramesReport(
            build: BenchFramesReport.buildConfiguration, frames: frames, warmupFrames: warmup,
            frameRate: NoiseTagSettings().intFor(.preferredNFramesPerSecond),
            codebook: .init(source: source, codes: book.count, length: book.length),
            timerOverheadNs: overhead, results: results)
        try format.print(report)
    }

    private func pathList() throws -> [FrameBenchmark.Path] {
        let names = paths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let list = names.compactMap(FrameBenchmark.Path.init(rawValue:))
        guard !names.isEmpty, list.count == names.count else {
            throw ValidationError("--paths: expected engine, recorded or full, separated by commas; got \"\(paths)\"")
        }
        return list
    }

    private func controlCounts() throws -> [Int] { try BenchFramesReport.controlCounts(controls, example: "9,36,64,255") }
}
