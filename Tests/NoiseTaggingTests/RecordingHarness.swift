import Foundation
import NoiseTagging
@testable import NoiseTagging

/// An ``EngineHarness`` that records into a temporary root, with a wall
/// clock that follows the virtual clock from 2019-09-23 09.44.45 UTC.
final class RecordingHarness {
    static let start = RecordingName.date("2019-09-23 09.44.45 +0000")!
    let folder: TemporaryFolder
    let engine: EngineHarness
    let wall: SettableWallClock
    let store: RecordingStore
    private(set) var recorder: Recorder!

    init(buttons: Int = 4, root: URL? = nil, wallStart: Date = RecordingHarness.start,
         limits: RecordingWriter.Limits = .init(), configure: (NoiseTagSettings) throws -> Void = { _ in }) throws {
        folder = try TemporaryFolder()
        let settings = NoiseTagSettings()
        try configure(settings)
        engine = EngineHarness(buttons: buttons, settings: settings)
        wall = SettableWallClock(wallStart, following: engine.clock)
        store = RecordingStore(root: root ?? folder.url.appendingPathComponent("recordings"))
        recorder = engine.controller.startRecording(in: store, wallClock: wall, timeZone: TimeZone(identifier: "UTC")!,
                                                    limits: limits)
    }

    deinit { engine.controller.stopRecording() }

    var controller: NoiseTagController { engine.controller }

    /// Writes everything so far, then lists the store.
    func folders() -> [String] {
        recorder.waitUntilWritten()
        return store.recordings().map(\.name.folderName)
    }

    /// The current recording's folder.
    var currentURL: URL { store.root.appendingPathComponent(controller.folderNameCurrentRecording!) }

    func events(ofType type: String) -> [NoiseTagEvent] {
        engine.events.filter { $0.jsonLine.contains("\"type\":\"\(type)\"") }
    }

    /// Complete lines of a file of `folder`.
    static func lines(_ folder: URL, _ file: String) -> [String] {
        var lines: [String] = []
        RecordingFileReader(folder.appendingPathComponent(file)).forEachLine { lines.append(String($0)) }
        return lines
    }
}
