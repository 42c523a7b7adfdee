import DecoderService
import Demo
import Foundation
import NoiseTagging
import Testing
import UtopiaProtocol

/// The embedded decoder's inputs in the engine's recording: `decoder-input.csv`
/// gets its header once per recording folder, rows go in on the engine
/// thread, and a new folder starts with the DATAHEADER the EEG started with,
/// so that each folder re-decodes on its own.
@Suite struct DecoderInputWriterTests {
    static func record(_ message: UtopiaMessage, at seconds: Double) -> DecoderInputRecord {
        DecoderInputRecord(message, wireMilliseconds: seconds * 1000)!
    }
    static let header = record(.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: [])), at: 1)
    static func packet(at seconds: Double) -> DecoderInputRecord {
        record(.dataPacket(DataPacket(timestamp: Int32(seconds * 1000), samples: [[1, 2]])), at: seconds)
    }

    /// The lines of `decoder-input.csv` in the folder whose name starts with `prefix`… or the current one.
    static func lines(in store: RecordingStore, folder: String) throws -> [String] {
        let text = try String(contentsOf: store.root.appendingPathComponent(folder).appendingPathComponent(DecoderInputFile.name),
                              encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    @Test func rowsGoIntoTheCurrentRecordingWithTheHeaderOncePerFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-input-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = RecordingStore(root: root)
        let clock = VirtualClock(start: 1)
        let controller = NoiseTagController(clock: clock)
        let writer = DecoderInputWriter()
        writer.receive([Self.header])                                   // before the engine is there: waits
        writer.attach(to: controller.inbox)
        let recorder = controller.startRecording(in: store)
        writer.receive([Self.packet(at: 1.1)])
        writer.receive([Self.packet(at: 1.2), Self.record(.newTarget(NewTarget(timestamp: 1_250)), at: 1.25)])
        controller.tick()
        recorder.waitUntilWritten()
        let first = try #require(controller.folderNameCurrentRecording)
        let lines = try Self.lines(in: store, folder: first)
        #expect(lines.count == 5)
        #expect(lines[0] == "time,id,hex")
        #expect(lines.dropFirst().map { $0.split(separator: ",")[1] } == ["A", "D", "D", "N"])
        #expect(lines[1].hasPrefix("1.000000,A,41"))
        #expect(try DecoderInputFile.read(from: store.root.appendingPathComponent(first).appendingPathComponent(DecoderInputFile.name))
                == [Self.header, Self.packet(at: 1.1), Self.packet(at: 1.2), Self.record(.newTarget(NewTarget(timestamp: 1_250)), at: 1.25)])

        // A new recording: its file starts with the header row and the DATAHEADER, stamped with the next row's time.
        clock.advance(by: 1)
        controller.startNewRecording(withComments: "block 2")
        let second = try #require(controller.folderNameCurrentRecording)
        #expect(second != first)
        writer.receive([Self.packet(at: 2.5)])
        controller.tick()
        recorder.waitUntilWritten()
        let next = try Self.lines(in: store, folder: second)
        #expect(next.count == 3)
        #expect(next[0] == "time,id,hex")
        #expect(next[1] == "2.500000," + lines[1].split(separator: ",").dropFirst().joined(separator: ","))
        #expect(next[2].hasPrefix("2.500000,D,"))
        // The first folder got nothing more.
        let closed = try #require(store.recordings().map(\.name.folderName).first { $0.hasPrefix(first) && $0 != second })
        #expect(try Self.lines(in: store, folder: closed).count == 5)
        controller.stopRecording()
    }

    @Test func rowsWhileNothingRecordsAreDroppedButTheDataHeaderIsKeptForTheNextRecording() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("decoder-input-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = RecordingStore(root: root)
        let controller = NoiseTagController(clock: VirtualClock(start: 1))
        let writer = DecoderInputWriter()
        writer.attach(to: controller.inbox)
        writer.receive([Self.header, Self.packet(at: 1.1)])
        controller.tick()
        let recorder = controller.startRecording(in: store)
        writer.receive([Self.packet(at: 3)])
        controller.tick()
        recorder.waitUntilWritten()
        let folder = try #require(controller.folderNameCurrentRecording)
        let lines = try Self.lines(in: store, folder: folder)
        #expect(lines.map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == ["time,id", "3.000000,A", "3.000000,D"])
        controller.stopRecording()
    }
}
