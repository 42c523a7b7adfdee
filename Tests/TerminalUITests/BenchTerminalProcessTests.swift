import Foundation
import JSONSupport
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
        // The rows as the scripts read them: by key.
        let rows = try #require(JSONDecoder().decode(JSONValue.self, from: data).object?["results"]?.array).compactMap(\.object)
        #expect(rows.map { $0["pattern"]?.string } == ["all", "none", "flicker", "all", "none", "flicker"])
        for row in rows {
            let changedCells = try #require(row["changedCells"]?.number), bytesPerFrame = try #require(row["bytesPerFrame"]?.number)
            let floorBytesPerFrame = try #require(row["floorBytesPerFrame"]?.number)
            switch row["pattern"]?.string {
            case "none":
                #expect(bytesPerFrame == 0 && changedCells == 0)
            case "all":
                // Every block cell changes: 8×3 cells per button.
                #expect(changedCells == (row["controls"]?.number).map { $0 * 24 })
                #expect(bytesPerFrame <= 2 * floorBytesPerFrame)
                fallthrough
            default:
                #expect(changedCells > 0)
                #expect(bytesPerFrame >= floorBytesPerFrame)
            }
        }
    }
}
