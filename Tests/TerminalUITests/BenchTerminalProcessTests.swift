import Foundation
import Testing
import TestSupport

/// `noisetag bench terminal` reports what a frame costs in bytes: nothing
/// when nothing changes, at least the changed cells' characters otherwise.
@Suite("Bench terminal", .tags(.processes), .outsideWorld)
struct BenchTerminalProcessTests {
    private var binary: String {
        if let path = ProcessInfo.processInfo.environment["NOISETAG_BIN"] { return path }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("noisetag").path
    }

    private struct Report: Decodable {
        struct Row: Decodable {
            let controls: Int
            let pattern: String
            let changedCells: Double
            let bytesPerFrame: Double
            let floorBytesPerFrame: Double
        }
        let results: [Row]
    }

    @Test("No change costs no bytes; every change costs at least its characters and stays within twice them")
    func bytesPerFrame() throws {
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no noisetag binary at \(binary)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["bench", "terminal", "--json", "--frames", "20", "--warmup", "2", "--controls", "9,36",
                             "--output", "null"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try JSONDecoder().decode(Report.self, from: data)
        #expect(report.results.map(\.pattern) == ["all", "none", "flicker", "all", "none", "flicker"])
        for row in report.results {
            switch row.pattern {
            case "none":
                #expect(row.bytesPerFrame == 0 && row.changedCells == 0)
            case "all":
                // Every block cell changes: 8×3 cells per button.
                #expect(row.changedCells == Double(row.controls * 24))
                fallthrough
            default:
                #expect(row.changedCells > 0)
                #expect(row.bytesPerFrame >= row.floorBytesPerFrame)
            }
            if row.pattern == "all" { #expect(row.bytesPerFrame <= 2 * row.floorBytesPerFrame) }
        }
    }
}
