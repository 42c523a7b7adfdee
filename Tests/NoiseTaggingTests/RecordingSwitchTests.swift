import Foundation
import Testing
@testable import NoiseTagging

@Suite("Turning recordings off and on")
struct RecordingSwitchTests {
    @Test("recordingsEnabled off ends the current recording ('recordings off'); on starts a new one ('recordings on') in the same store")
    func settingStopsAndStartsTheRecorder() throws {
        let h = try RecordingHarness()
        h.engine.run(for: 2)
        #expect(h.controller.activeRecorder != nil)

        try h.controller.settings.set(value: .bool(false), for: .recordingsEnabled)
        #expect(h.controller.activeRecorder == nil)
        #expect(h.controller.folderNameCurrentRecording == nil)
        let afterOff = h.store.recordings().map(\.name.folderName)
        #expect(afterOff == ["2019-09-23 09.44.45 +0000 App started – recordings off 2019-09-23 09.44.47 +0000"])

        h.engine.run(for: 3)   // nothing is recorded while off
        #expect(h.store.recordings().count == 1)

        try h.controller.settings.set(value: .bool(true), for: .recordingsEnabled)
        let recorder = try #require(h.controller.activeRecorder)
        #expect(recorder.store.root == h.store.root)
        #expect(h.controller.folderNameCurrentRecording == "2019-09-23 09.44.50 +0000 recordings on")
        h.controller.stopRecording()
        #expect(h.store.recordings().map(\.name.folderName) == afterOff + [
            "2019-09-23 09.44.50 +0000 recordings on – App ended 2019-09-23 09.44.50 +0000"])
    }

    @Test("NOISETAG_RECORDINGS=off: the app controller records nothing and its recordingsEnabled setting reads false")
    func environmentTurnsTheSingletonsRecordingOff() throws {
        let folder = try TemporaryFolder()
        let store = RecordingStore(root: folder.url.appendingPathComponent("recordings"))
        let controller = NoiseTagController.appController(environment: ["NOISETAG_RECORDINGS": "off"],
                                                          clock: VirtualClock(), store: store)
        #expect(controller.activeRecorder == nil)
        #expect(controller.settings.boolFor(.recordingsEnabled) == false)
        #expect(!FileManager.default.fileExists(atPath: store.root.path))
    }

    @Test("without NOISETAG_RECORDINGS=off the app controller records from its first use, like the reference")
    func appControllerRecordsByDefault() throws {
        let folder = try TemporaryFolder()
        let store = RecordingStore(root: folder.url.appendingPathComponent("recordings"))
        let controller = NoiseTagController.appController(environment: [:], clock: VirtualClock(), store: store)
        defer { controller.stopRecording() }
        #expect(controller.activeRecorder != nil)
        #expect(controller.settings.boolFor(.recordingsEnabled))
        #expect(controller.folderNameCurrentRecording?.hasSuffix("App started") == true)
    }
}
