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

    @Test("switching recordings off and on many times leaves one recorder observing, and a stopped recorder is released")
    func switchingDoesNotPileUpObservers() throws {
        let h = try RecordingHarness()
        #expect(h.controller.frameObservers.count == 1 && h.controller.trafficObservers.count == 1)
        weak var replaced: Recorder?
        for round in 0..<5 {
            try h.controller.settings.set(value: .bool(false), for: .recordingsEnabled)
            #expect(h.controller.frameObservers.isEmpty && h.controller.trafficObservers.isEmpty)
            h.engine.run(for: 0.5)
            try h.controller.settings.set(value: .bool(true), for: .recordingsEnabled)
            if round == 0 { replaced = h.controller.activeRecorder }
            h.engine.run(for: 0.5)
        }
        #expect(h.controller.frameObservers.count == 1 && h.controller.trafficObservers.count == 1)
        #expect(replaced == nil, "a recorder that was switched off and replaced is released")
        // An app's own observer stays until it removes it; removing twice is harmless.
        var frames = 0
        let token = h.controller.observeFrames { _ in frames += 1 }
        h.engine.run(for: 0.5)
        h.controller.removeObserver(token)
        h.controller.removeObserver(token)
        let seen = frames
        h.engine.run(for: 0.5)
        #expect(seen > 0 && frames == seen)
        h.controller.stopRecording()
    }

    @Test("the app's own calls reach the recording and subscribers that ask for them, not an app's plain subscriber")
    func appCallsAreOptIn() throws {
        let h = try RecordingHarness()
        var asked: [NoiseTagEvent] = []
        h.controller.events.subscribe(includingAppCalls: true) { asked.append($0) }
        h.controller.trialsAreRunning = true
        h.engine.run(for: 1)
        h.controller.touchPress(h.engine.buttons[0])
        h.engine.run(for: 1)
        func calls(_ events: [NoiseTagEvent]) -> [String] {
            events.compactMap { if case .call(let call) = $0.kind { return call.name } else { return nil } }
        }
        #expect(calls(asked).contains("touchPress") && calls(asked).contains("trialsAreRunning"))
        #expect(calls(h.engine.events).isEmpty, "the harness subscribed plainly")
        #expect(!h.events(ofType: "recordingStarted").isEmpty, "other events still do")
        _ = h.folders()
        let lines = RecordingHarness.lines(h.currentURL, "events.jsonl")
        #expect(lines.contains { $0.contains("\"type\":\"call\"") && $0.contains("touchPress") }, "replay needs the calls recorded")
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
