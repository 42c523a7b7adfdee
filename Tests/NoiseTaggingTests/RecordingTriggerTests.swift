import Foundation
import Testing
@testable import NoiseTagging

@Suite("When a new recording starts")
struct RecordingTriggerTests {
    /// The start reasons of the folders, oldest first, and checks the chain.
    private func reasons(_ h: RecordingHarness) -> [String] {
        let entries = h.folders().compactMap(RecordingName.init(folderName:))
        for (a, b) in zip(entries, entries.dropFirst()) { #expect(a.isFollowed(by: b), "\(a) then \(b)") }
        #expect(entries.last?.isOpen == true)
        return entries.map(\.startReason)
    }

    @Test("process start: one open recording, 'App started', at the wall clock's time")
    func appStarted() throws {
        let h = try RecordingHarness()
        #expect(h.folders() == ["2019-09-23 09.44.45 +0000 App started"])
        #expect(h.controller.folderNameCurrentRecording == "2019-09-23 09.44.45 +0000 App started")
        #expect(h.events(ofType: "recordingStarted").count == 1)
        #expect(h.controller.closedRecordings.isEmpty)
    }

    @Test("triggers reach the recorder directly: no event is emitted while another is being delivered")
    func noEventFromInsideTheRecordersHandler() throws {
        let folder = try TemporaryFolder()
        let engine = EngineHarness(buttons: 2, settings: NoiseTagSettings())
        var depth = 0
        var nested: [String] = []
        engine.controller.events.subscribe { event in
            depth += 1
            if depth > 1 { nested.append(event.jsonLine) }
        }
        let wall = SettableWallClock(RecordingHarness.start, following: engine.clock)
        engine.controller.startRecording(in: RecordingStore(root: folder.url), wallClock: wall,
                                         timeZone: TimeZone(identifier: "UTC")!)
        defer { engine.controller.stopRecording() }
        engine.controller.events.subscribe { _ in depth -= 1 }
        (depth, nested) = (0, [])     // "App started" was delivered before the closing subscriber existed
        engine.run(for: 1)
        engine.controller.developerPanelOpened()
        engine.controller.set(mode: .trainGeneric)
        engine.controller.applicationDidEnterBackground()
        engine.clock.advance(by: 3601)
        engine.controller.applicationWillEnterForeground()
        engine.controller.set(mode: .test)
        engine.controller.startNewRecording(withComments: "next")
        #expect(nested.isEmpty, "emitted from inside another event's delivery: \(nested)")
        let started = engine.events.filter { if case .recordingStarted = $0.kind { return true } else { return false } }
        #expect(started.count == 5, "App started, developer panel, training, background, client")
        let lifecycle = engine.kinds.firstIndex(of: .lifecycle(.developerPanelOpened))
        #expect(started[1].jsonLine.contains("developer panel"))
        let newRecording = engine.kinds.firstIndex(of: started[1].kind)
        #expect(lifecycle != nil && newRecording != nil && newRecording! < lifecycle!, "the trigger's own event lands in the new recording")
    }

    @Test("developer panel, training and the client each start one; starting one ends the previous")
    func explicitTriggers() throws {
        let h = try RecordingHarness()
        h.engine.run(for: 2)
        h.controller.developerPanelOpened()
        h.engine.run(for: 2)
        h.controller.set(mode: .trainGeneric)
        h.engine.run(for: 1)
        h.controller.set(mode: .trainSimple)          // training to training: no new recording
        h.controller.set(mode: .test)
        h.controller.startNewRecording(withComments: "subject 7: block 2")
        #expect(reasons(h) == ["App started", "developer panel", "training", "client; subject 7; block 2"])
        #expect(h.folders()[0] == "2019-09-23 09.44.45 +0000 App started \u{2013} developer panel 2019-09-23 09.44.47 +0000")
        #expect(h.controller.closedRecordings == Array(h.folders().prefix(3)))
        #expect(h.events(ofType: "recordingEnded").count == 3)
    }

    @Test("back from the background after 59 minutes: same recording; after 90 minutes: a new one")
    func background() throws {
        let h = try RecordingHarness()
        h.controller.applicationDidEnterBackground()
        h.engine.clock.advance(by: 59 * 60)
        h.controller.applicationWillEnterForeground()
        h.engine.run(for: 1)
        #expect(reasons(h) == ["App started"])
        h.controller.applicationDidEnterBackground()
        h.engine.clock.advance(by: 90 * 60)
        h.controller.applicationWillEnterForeground()
        #expect(reasons(h) == ["App started", "1.50h in background"])
        #expect(h.events(ofType: "lifecycle").count == 4)
        let lifecycle = h.events(ofType: "lifecycle").map(\.kind)
        #expect(lifecycle.first == .lifecycle(.didEnterBackground) && lifecycle.last == .lifecycle(.willEnterForeground))
    }

    @Test("passing 00:00 starts a new recording only when the current one is over 23 hours old")
    func midnight() throws {
        // Starts at 09.44.45: the first midnight comes after 14 h (too young), the second after 38 h.
        let h = try RecordingHarness()
        h.engine.run(for: 1)
        h.engine.clock.advance(by: 15 * 3600)   // 00.44 on the 24th: passed midnight, 15 h old
        h.controller.tick()
        #expect(reasons(h) == ["App started"])
        h.engine.clock.advance(by: 22 * 3600)   // 22.44 on the 24th: 37 h old, no midnight passed
        h.controller.tick()
        #expect(reasons(h) == ["App started"])
        h.engine.clock.advance(by: 2 * 3600)    // 00.44 on the 25th
        h.controller.tick()
        #expect(reasons(h) == ["App started", "midnight"])
        #expect(h.folders().last == "2019-09-25 00.44.46 +0000 midnight")
        h.engine.clock.advance(by: 24 * 3600)   // the next midnight: the new one is exactly 24 h old
        h.controller.tick()
        #expect(reasons(h) == ["App started", "midnight", "midnight"])
    }

    @Test("a wall clock set back across 00:00 does not start one; passing 00:00 again does")
    func clockSetBack() throws {
        let h = try RecordingHarness(wallStart: RecordingName.date("2019-09-23 12.00.00 +0000")!)
        h.engine.clock.advance(by: 12 * 3600 + 1)                      // 00.00.01 on the 24th, 12 h old
        h.controller.tick()
        h.engine.clock.advance(by: 12 * 3600)                          // 12.00.01, 24 h old
        h.controller.tick()
        h.wall.set(RecordingName.date("2019-09-23 23.00.00 +0000")!)   // the user sets the clock back
        h.engine.clock.advance(by: 1)
        h.controller.tick()
        #expect(reasons(h) == ["App started"])
        h.engine.clock.advance(by: 3600)                               // 00.00.01 on the 24th again, 25 h old
        h.controller.tick()
        #expect(reasons(h) == ["App started", "midnight"])
    }

    @Test("two recordings with the same left part get distinct names")
    func uniqueNames() throws {
        let h = try RecordingHarness()
        h.controller.startNewRecording(withComments: "x")
        h.controller.startNewRecording(withComments: "x")
        #expect(reasons(h) == ["App started", "client; x", "client; x (2)"])
        let long = String(repeating: "y", count: 80)
        h.controller.startNewRecording(withComments: long)
        h.controller.startNewRecording(withComments: long)
        let last = reasons(h).suffix(2)
        #expect(last.first?.count == RecordingName.maximumReasonLength && last.last?.hasSuffix("y (2)") == true)
        #expect(last.last?.count == RecordingName.maximumReasonLength)
    }

    @Test("two processes starting in the same second into one root get distinct names")
    func twoProcesses() throws {
        let first = try RecordingHarness()
        let second = try RecordingHarness(root: first.store.root)
        #expect(second.controller.folderNameCurrentRecording == "2019-09-23 09.44.45 +0000 App started (2)")
        #expect(first.folders().sorted() == ["2019-09-23 09.44.45 +0000 App started", "2019-09-23 09.44.45 +0000 App started (2)"])
        #expect(first.store.recordings().allSatisfy { $0.state == .open })
    }
}
