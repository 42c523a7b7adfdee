import Foundation
import Testing
@testable import NoiseTagging

@Suite("Recording failures and the size limit")
struct RecordingFailureTests {
    private func problems(_ h: RecordingHarness) -> [(path: String, reason: String, off: Bool)] {
        h.engine.kinds.compactMap {
            if case .recordingProblem(let path, let reason, let off) = $0 { return (path, reason, off) } else { return nil }
        }
    }

    @Test("an unwritable root (a file where the folder should be): an error event naming it, a notice, and trials run on")
    func unwritableRoot() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("blocker")
        try Data("in the way\n".utf8).write(to: blocker)
        let h = try RecordingHarness(root: blocker.appendingPathComponent("recordings"))
        let first = try #require(problems(h).first)
        #expect(first.path == blocker.path + "/recordings" || first.path == blocker.path)
        #expect(first.reason.contains("not a directory") && first.off)
        #expect(h.engine.kinds.contains { if case .notice(let text) = $0 { return text.hasPrefix("recording is off") } else { return false } })
        #expect(h.controller.folderNameCurrentRecording == nil && !h.controller.append(line: "x", toFileNamed: "notes.txt"))
        h.engine.start()
        h.engine.run(for: 2)
        #expect(h.engine.trialStarts.count >= 1)
        h.controller.developerPanelOpened()                 // tries again, and says it failed again
        h.recorder.waitUntilWritten()
        #expect(problems(h).count == 2 && problems(h)[1].off)
        #expect(h.controller.folderNameCurrentRecording == nil)
    }

    @Test("a full disk while writing: an error event, recording off, the engine runs on; the next recording works")
    func fullDisk() throws {
        let h = try RecordingHarness()
        _ = h.folders()
        let failing = h.currentURL
        try FileManager.default.createSymbolicLink(atPath: failing.appendingPathComponent("notes.txt").path,
                                                   withDestinationPath: "/dev/full")
        #expect(h.controller.append(line: "this will not fit", toFileNamed: "notes.txt"))
        h.recorder.waitUntilWritten()
        let problem = try #require(problems(h).first)
        #expect(problem.off && problem.path.hasSuffix("notes.txt") && problem.reason.contains("No space left on device"))
        #expect(h.controller.folderNameCurrentRecording == nil && !h.controller.append(line: "x", toFileNamed: "other.txt"))
        h.engine.start()
        h.engine.run(for: 2)
        #expect(h.engine.trialStarts.count >= 1)
        h.controller.startNewRecording(withComments: "after the disk was freed")
        #expect(h.controller.append(line: "fits", toFileNamed: "other.txt"))
        let names = h.folders()
        #expect(names.count == 2 && RecordingName(folderName: names[0])?.isOpen == false)
        #expect(RecordingHarness.lines(h.currentURL, "other.txt") == ["fits"])
    }

    private func makeRecording(_ root: URL, _ name: String, bytes: Int) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(count: bytes).write(to: url.appendingPathComponent("frames.csv"))
        return url
    }

    @Test("old recordings go, oldest first, only when recordingsSizeLimitMB asks; live ones and other folders stay")
    func sizeLimit() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("recordings")
        let names = ["2019-01-01 10.00.00 +0000 App started",                                                  // live (locked)
                     "2019-02-01 10.00.00 +0000 App started \u{2013} App ended 2019-02-01 11.00.00 +0000",
                     "2019-03-01 10.00.00 +0000 App started",                                                  // crashed
                     "2019-04-01 10.00.00 +0000 App started \u{2013} App ended 2019-04-01 11.00.00 +0000"]
        for name in names { _ = try makeRecording(root, name, bytes: 400_000) }
        _ = try makeRecording(root, "not a recording", bytes: 400_000)
        let live = open(root.appendingPathComponent(names[0]).path, O_RDONLY | O_DIRECTORY)
        defer { close(live) }
        #expect(flock(live, LOCK_EX | LOCK_NB) == 0)

        let unlimited = try RecordingHarness(root: root)
        #expect(unlimited.folders().count == 5)
        unlimited.controller.stopRecording()

        let h = try RecordingHarness(root: root, wallStart: RecordingName.date("2019-09-24 09.00.00 +0000")!) {
            try $0.set(value: .int(1), for: .recordingsSizeLimitMB)
        }
        let left = h.folders()
        #expect(left.count == 4 && left.contains(names[0]) && left.contains(names[3]))
        #expect(!left.contains(names[1]) && !left.contains(names[2]))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("not a recording").path))
        let notices = h.engine.kinds.compactMap { if case .notice(let text) = $0 { return text } else { return nil } }
        #expect(notices.filter { $0.hasPrefix("deleted the old recording") }.count == 2)
        #expect(h.store.recordings().first { $0.name.folderName == names[0] }?.state == .open)
        #expect(h.controller.closedRecordings.contains(names[3]) && !h.controller.closedRecordings.contains(names[0]))
    }
}
