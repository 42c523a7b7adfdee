import DecoderService
import Foundation
import Testing
import UtopiaProtocol

/// `decoder-input.csv`: rows as written, read back exactly; a cut-off last
/// line is ignored; a bad row names the file and line.
@Suite struct DecoderInputFileTests {
    static let records = [
        DecoderInputRecord(.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: ["Cz", "Pz"])),
                           wireMilliseconds: 1_000_123.4567)!,
        DecoderInputRecord(.dataPacket(DataPacket(timestamp: 4, samples: [[1.5, -2], [.nan, 3]])), wireMilliseconds: 1_000_200)!,
        DecoderInputRecord(.stimulusEvent(StimulusEvent(timestamp: 5, objIDs: [0, 1], objStates: [1, 0])), wireMilliseconds: 1_000_216.6667)!,
    ]

    static func text(_ records: [DecoderInputRecord]) -> String {
        ([DecoderInputFile.header] + records.map(DecoderInputFile.cells(of:))).map { $0.joined(separator: ",") + "\n" }.joined()
    }

    @Test func rowsAreTimeIdAndLowerCaseHexAndReadBackExactly() throws {
        let record = DecoderInputRecord(.newTarget(NewTarget(timestamp: 7)), wireMilliseconds: 2_373_514.1459)!
        #expect(record.time == 2373.514145)
        #expect(DecoderInputFile.cells(of: record) == ["2373.514145", "N", "4e00040007000000"])
        let text = Self.text(Self.records)
        #expect(text.hasPrefix("time,id,hex\n1000.123456,A,"))
        let read = try DecoderInputFile.records(in: text, file: "decoder-input.csv")
        #expect(read.count == 3)
        #expect(read.map(\.bytes) == Self.records.map(\.bytes))                    // NaN samples too, byte for byte
        #expect(read.map(\.time.bitPattern) == Self.records.map(\.time.bitPattern))
        #expect(read[2].message == Self.records[2].message)
    }

    @Test func aCutOffLastLineIsIgnoredAndAWholeOneWithoutLineBreakIsKept() throws {
        let text = Self.text(Self.records)
        let cut = String(text.dropLast(7))                 // the stimulus event's hex loses its end
        #expect(try DecoderInputFile.records(in: cut, file: "f.csv").count == 2)
        let noBreak = String(text.dropLast())
        #expect(try DecoderInputFile.records(in: noBreak, file: "f.csv").count == 3)
        #expect(try DecoderInputFile.records(in: "time,id,h", file: "f.csv").isEmpty)
        #expect(try DecoderInputFile.records(in: "", file: "f.csv").isEmpty)
        let lastTimeOnly = text + "1000.3"
        #expect(try DecoderInputFile.records(in: lastTimeOnly, file: "f.csv").count == 3)
    }

    @Test func aBadRowNamesTheFileAndLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(DecoderInputFile.name)
        var lines = Self.text(Self.records).split(separator: "\n").map(String.init)
        lines[2] = "1000.200000,D,44zz"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        #expect {
            try DecoderInputFile.read(from: url)
        } throws: { error in
            guard case .badRow(let path, let line, let reason) = error as? DecoderInputFileError else { return false }
            return path == url.path && line == 3 && reason.hasPrefix("hex:")
                && "\(error)".hasPrefix(url.path + ":3: hex: '44zz'")
        }
        // The same row in last place without a line break is a cut-off line, not an error.
        #expect(try DecoderInputFile.records(in: lines.prefix(3).joined(separator: "\n"), file: url.path).count == 1)
    }

    @Test func otherBadRowsSayWhatIsWrong() {
        func reason(_ text: String) -> String? {
            do { _ = try DecoderInputFile.records(in: text, file: "f.csv"); return nil } catch {
                if case .badRow(_, let line, let reason) = error { return "\(line): \(reason)" }
                return "\(error)"
            }
        }
        let rows = Self.text(Self.records)
        let packetHex = DecoderInputFile.cells(of: Self.records[1])[2]
        #expect(reason("time,hex\n")?.hasPrefix("1: expected the header row") == true)
        #expect(reason(rows + "999.000000,D,\(packetHex)\n")?.hasPrefix("5: time goes back") == true)
        #expect(reason(rows + "1001.000000,E,\(packetHex)\n")?.hasPrefix("5: id: 'E' but the bytes hold message id 0x44") == true)
        #expect(reason(rows + "1001.000000,D,440004\n")?.hasPrefix("5: hex: not a Utopia message") == true)
        #expect(reason(rows + "1001.000000,D\n")?.hasPrefix("5: expected 3 cells") == true)
        #expect(reason(rows + "\n1001.000000,D,\(packetHex)\n")?.hasPrefix("5: empty line") == true)
        #expect(reason(rows + "soon,D,\(packetHex)\n")?.hasPrefix("5: time:") == true)
        #expect(reason(rows + "1001.000000,D,\(packetHex)\r\n") == nil)            // CRLF is read too
        #expect(DecoderInputFileError.unreadable(path: "/x", reason: "gone").description == "/x: cannot read: gone")
        #expect(throws: DecoderInputFileError.self) { try DecoderInputFile.read(from: URL(fileURLWithPath: "/nonexistent/decoder-input.csv")) }
    }
}
