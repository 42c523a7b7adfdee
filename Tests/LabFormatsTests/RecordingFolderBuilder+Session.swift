import DecoderService
import Foundation
import TestSupport

extension RecordingFolderBuilder {
    /// A builder whose recording is built (``build()``): what most tests start from.
    static func built() -> RecordingFolderBuilder {
        var builder = RecordingFolderBuilder()
        builder.build()
        return builder
    }

    /// A session folder `2026-11-25 16.28.00 P01` in `dir` holding this
    /// built recording split in two recording folders named `first` and
    /// `second`, the second starting with the DATAHEADER again (as a new
    /// recording of the same engine, or a resumed session's new engine).
    /// Returns the session folder and the second recording's folder.
    /// ``writeSession(in:first:second:)`` in a new scratch folder, which
    /// the caller removes (`dir`).
    func scratchSession(first: String, second: String) throws -> (dir: URL, session: URL, second: URL) {
        let dir = try ScratchFolder.make()
        let (session, later) = try writeSession(in: dir, first: first, second: second)
        return (dir, session, later)
    }

    func writeSession(in dir: URL, first: String, second: String) throws -> (session: URL, second: URL) {
        let session = dir.appendingPathComponent("2026-11-25 16.28.00 P01")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        let split = records.count / 2
        var early = self, late = self
        early.records = Array(records[..<split])
        late.records = [DecoderInputRecord(time: records[split].time, bytes: records[0].bytes)] + records[split...]
        _ = try early.write(in: session, name: first)
        return (session, try late.write(in: session, name: second))
    }
}
