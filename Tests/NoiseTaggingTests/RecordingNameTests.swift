import Foundation
import Testing
@testable import NoiseTagging

@Suite("Recording names")
struct RecordingNameTests {
    let example = "2019-09-23 09.44.45 +0000 App started \u{2013} 2.34h in background 2019-09-23 12.05.10 +0000"

    @Test("the guide's example parses and formats back to the same text")
    func guideExample() throws {
        let name = try #require(RecordingName(folderName: example))
        #expect(name.startReason == "App started")
        #expect(name.endReason == "2.34h in background")
        #expect(name.start == Date(timeIntervalSince1970: 1_569_231_885))
        #expect(name.end == Date(timeIntervalSince1970: 1_569_240_310))
        #expect(name.folderName == example)
        #expect(!name.isOpen)
        #expect(!example.contains(":") && !example.contains("/"))
    }

    @Test("open, closed and chained names round trip; the right part of one is the left part of the next")
    func chain() throws {
        let t0 = Date(timeIntervalSince1970: 1_569_231_885.75)
        let first = RecordingName(start: t0, reason: RecordingTrigger.appStarted.reason)
        let second = RecordingName(start: t0.addingTimeInterval(8425), reason: RecordingTrigger.background(seconds: 8424).reason)
        let third = RecordingName(start: t0.addingTimeInterval(90_000), reason: RecordingTrigger.midnight.reason)
        let closed = [first.ended(by: second), second.ended(by: third)]
        #expect(closed[0].folderName == example)
        for name in closed + [third] {
            #expect(RecordingName(folderName: name.folderName) == name)
        }
        #expect(third.isOpen && RecordingName(folderName: third.folderName)?.isOpen == true)
        #expect(closed[0].rightPart == "2.34h in background 2019-09-23 12.05.10 +0000")
        #expect(closed[0].rightPart == second.startReason + " " + RecordingName.format(second.start))
        #expect(second.leftPart == RecordingName.format(second.start) + " " + second.startReason)
        #expect(closed[0].isFollowed(by: second) && closed[1].isFollowed(by: third) && !closed[0].isFollowed(by: third))
        // Sortable by start: names sort like their start times.
        let names = [third.folderName, closed[1].folderName, closed[0].folderName]
        #expect(names.sorted() == [closed[0].folderName, closed[1].folderName, third.folderName])
    }

    @Test("every trigger's reason survives the round trip")
    func reasons() {
        let triggers: [RecordingTrigger] = [.appStarted, .background(seconds: 3600), .midnight, .developerPanel,
                                            .training, .client(comment: "subject 4: run 2/3 <ok>?"), .appEnded]
        let start = Date(timeIntervalSince1970: 0)
        for trigger in triggers {
            let name = RecordingName(start: start, reason: trigger.reason).ended(at: start, reason: trigger.reason)
            #expect(RecordingName(folderName: name.folderName)?.startReason == trigger.reason)
            #expect(!name.folderName.contains(":") && !name.folderName.contains("/"))
        }
        #expect(RecordingTrigger.client(comment: "subject 4: run 2/3 <ok>?").reason == "client; subject 4; run 2-3 _ok__")
        #expect(RecordingTrigger.client(comment: "  ").reason == "client")
        #expect(RecordingTrigger.background(seconds: 5400).reason == "1.50h in background")
        #expect(RecordingName.sanitized(reason: "a \u{2013} b\nc").contains("\u{2013}") == false)
        #expect(RecordingName.sanitized(reason: String(repeating: "x", count: 300)).count == RecordingName.maximumReasonLength)
    }

    @Test("text that is not a recording name is refused")
    func refusals() {
        for text in ["", "notes", "2019-09-23 09:44:45 +0000 App started", "2019-13-23 09.44.45 +0000 x",
                     "2019-09-23 09.44.45 +0000", "2019-09-23 09.44.45 +0000 a \u{2013} b",
                     "2019-09-23 09.44.45 +0000 a \u{2013} b 2019-09-23 09.44.45 +0000 \u{2013} c",
                     "2019-02-30 09.44.45 +0000 x", "2019-09-23 09.44.45 +0000 a/b"] {
            #expect(RecordingName(folderName: text) == nil, "\(text)")
        }
        #expect(RecordingName.date("2019-09-23 11.44.45 +0200") == RecordingName.date("2019-09-23 09.44.45 +0000"))
    }

    @Test("recordings that start in the same second are listed in chain order")
    func sameSecondOrder() throws {
        let root = try TemporaryFolder()
        let t = Date(timeIntervalSince1970: 1_569_231_885)
        let a = RecordingName(start: t, reason: "developer panel")
        let b = RecordingName(start: t, reason: "client; x")
        let c = RecordingName(start: t, reason: "App started")   // sorts first by text, comes last by chain
        for name in [RecordingName(start: t.addingTimeInterval(-5), reason: "training").ended(by: a),
                     a.ended(by: b), b.ended(by: c), c] {
            try FileManager.default.createDirectory(at: root.url.appendingPathComponent(name.folderName),
                                                    withIntermediateDirectories: true)
        }
        let listed = RecordingStore(root: root.url).recordings().map(\.name.startReason)
        #expect(listed == ["training", "developer panel", "client; x", "App started"])
    }

    @Test("a folder of recordings (a study session's) is not listed as a crashed recording")
    func folderOfRecordingsIsNotARecording() throws {
        let root = try TemporaryFolder()
        let t = Date(timeIntervalSince1970: 1_569_231_885)
        let recording = root.url.appendingPathComponent(RecordingName(start: t, reason: "App started").folderName)
        try FileManager.default.createDirectory(at: recording, withIntermediateDirectories: true)
        try Data().write(to: recording.appendingPathComponent(RecordingFile.events.rawValue))
        let session = root.url.appendingPathComponent("2019-09-23 09.44.50 +0000 session P01")
        let inner = session.appendingPathComponent(RecordingName(start: t.addingTimeInterval(5), reason: "training").folderName)
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: session.appendingPathComponent("session.json"))
        let store = RecordingStore(root: root.url)
        #expect(store.recordings().map(\.name.startReason) == ["App started"])
        #expect(store.foldersHoldingRecordings().map(\.lastPathComponent) == ["2019-09-23 09.44.50 +0000 session P01"])
        // An empty folder with a recording's name is still a (crashed) recording.
        try FileManager.default.createDirectory(at: root.url.appendingPathComponent(RecordingName(start: t.addingTimeInterval(60), reason: "x").folderName),
                                                withIntermediateDirectories: true)
        #expect(store.recordings().count == 2)
    }

    @Test("a folder named with another UTC offset is listed and found by its name on disk")
    func anotherOffsetKeepsItsName() throws {
        let root = try TemporaryFolder()
        let name = "2019-09-23 11.44.45 +0200 App started"
        try FileManager.default.createDirectory(at: root.url.appendingPathComponent(name), withIntermediateDirectories: true)
        let store = RecordingStore(root: root.url)
        #expect(store.recordings().map(\.folderName) == [name])
        #expect(store.recording(matching: "2019-09-23 11.44")?.folderName == name)
        #expect(store.recording(matching: name)?.name.start == Date(timeIntervalSince1970: 1_569_231_885))
    }
}
