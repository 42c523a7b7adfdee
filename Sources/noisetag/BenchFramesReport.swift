import Foundation

/// What `noisetag bench frames` prints: a table, or one JSON object.
struct BenchFramesReport: BenchReport {
    /// The codebook the controls flicker.
    struct Codebook: Encodable {
        /// A file path, or how the default book was generated.
        let source: String
        let codes: Int
        let length: Int
    }

    let benchmark = "frames"
    /// "release" or "debug": how this binary was compiled.
    let build: String
    let frames: Int
    let warmupFrames: Int
    let frameRate: Int
    let codebook: Codebook
    /// Median cost of the two clock reads around each sample (included in every sample).
    let timerOverheadNs: UInt64
    let results: [FrameBenchmarkResult]

    static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    func table() -> String {
        let cell = Self.cell
        var lines = [
            "engine time per flicker frame (tick: states, colours, STIMULUSEVENT, encoding; " +
                "path recorded adds the recorder, full also a ZeroMQ link to a local decoder), \(build) build",
            "\(frames) timed frames after \(warmupFrames) warm-up frames; codebook \(codebook.source) " +
                "(\(codebook.codes) codes of \(codebook.length)); timer overhead \(timerOverheadNs) ns",
            "",
            [cell("path", 8), cell("controls", 8), cell("median ns", 11), cell("p99 ns", 9), cell("p99.9 ns", 10),
             cell("max ns", 10), cell("bytes", 6)].joined(separator: "  "),
        ]
        for r in results {
            lines.append([cell(r.path.rawValue, 8), cell("\(r.controls)", 8), cell("\(r.medianNs)", 11), cell("\(r.p99Ns)", 9),
                          cell("\(r.p999Ns)", 10), cell("\(r.maxNs)", 10), cell("\(r.frameBytes)", 6)]
                .joined(separator: "  "))
        }
        if build == "debug" { lines += ["", "note: debug build; use swift build -c release for real figures"] }
        return lines.joined(separator: "\n")
    }
}
