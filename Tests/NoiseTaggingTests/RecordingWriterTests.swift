import Foundation
import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Recording writer: buffer, drops, volume")
struct RecordingWriterTests {
    @Test("when the disk cannot keep up, frame lines are dropped first, counted and reported; other lines are kept")
    func framesDropFirst() throws {
        var limits = RecordingWriter.Limits()
        limits.frameBytes = 2_000
        let h = try RecordingHarness(limits: limits)
        _ = h.folders()
        h.controller.set(mode: .test)
        var ticks = 0
        h.controller.observeFrames { _ in ticks += 1 }
        h.engine.start()
        h.recorder.writer.io.withLock { _ in        // the disk stalls
            h.engine.run(for: 3)
        }
        h.engine.run(for: 1.5)
        h.recorder.waitUntilWritten()
        let dropped = h.engine.kinds.compactMap { kind -> (Int, Int)? in
            if case .recordingLinesDropped(let frames, let others) = kind { return (frames, others) } else { return nil }
        }
        #expect(dropped.reduce(0) { $0 + $1.0 } > 100 && dropped.allSatisfy { $0.1 == 0 })
        let stimuli = h.engine.link.sent.filter { $0.messageID == UInt8(ascii: "E") }.count
        let lines = RecordingHarness.lines(h.currentURL, RecordingFile.decoder.rawValue)
        #expect(stimuli > 100 && lines.filter { $0.contains(",out,E,") }.count == stimuli)
        let frames = RecordingHarness.lines(h.currentURL, RecordingFile.frames.rawValue).count - 1
        #expect(frames + h.recorder.writer.dropped.frames == ticks)
        #expect(RecordingHarness.lines(h.currentURL, RecordingFile.events.rawValue).contains { $0.contains("recordingLinesDropped") })
    }

    @Test("a trial's line and its trialEnded event line are in the recording's queue before an app hears the trial end")
    func trialEndQueuedBeforeTheAppHears() throws {
        let h = try RecordingHarness()
        _ = h.folders()
        h.controller.set(mode: .test)
        var seen: [(trial: Int, inTrials: Bool, inEvents: Bool)] = []
        h.controller.events.subscribe { event in
            guard case .trialEnded(let end) = event.kind else { return }
            h.recorder.waitUntilWritten()       // writes what was queued before this moment
            let trials = RecordingHarness.lines(h.currentURL, RecordingFile.trials.rawValue)
            let events = RecordingHarness.lines(h.currentURL, RecordingFile.events.rawValue)
            func has(_ lines: [String], type: String?) -> Bool {
                lines.contains { line in
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return false }
                    return object["trial"] as? Int == end.trial && (type == nil || object["type"] as? String == type)
                }
            }
            seen.append((end.trial, has(trials, type: nil), has(events, type: "trialEnded")))
        }
        h.engine.start()
        h.engine.run(for: 30)
        #expect(seen.count >= 2)
        for end in seen { #expect(end.inTrials && end.inEvents, "trial \(end.trial)") }
    }

    @Test("other lines push waiting frame lines out before they are dropped themselves")
    func eviction() throws {
        let folder = try TemporaryFolder()
        var limits = RecordingWriter.Limits()
        (limits.frameBytes, limits.totalBytes) = (100, 200)
        let writer = RecordingWriter(store: RecordingStore(root: folder.url), limits: limits)
        writer.begin(folder: "2019-09-23 09.44.45 +0000 test")
        writer.io.withLock { _ in            // the disk stalls: nothing is handed over meanwhile
            let frame = [UInt8](repeating: 0x66, count: 29) + [0x0A]
            for _ in 0..<3 { #expect(writer.append(frame, to: "frames.csv", isFrame: true)) }
            #expect(!writer.append(frame, to: "frames.csv", isFrame: true))
            #expect(writer.append([UInt8](repeating: 0x61, count: 99) + [0x0A], to: "events.jsonl"))
            #expect(writer.append([UInt8](repeating: 0x62, count: 49) + [0x0A], to: "events.jsonl"))   // evicts 3 frame lines
            #expect(!writer.append([UInt8](repeating: 0x63, count: 99) + [0x0A], to: "events.jsonl"))  // nothing left to evict
            #expect(writer.dropped == (4, 1))
        }
        writer.end(renamingTo: nil)
        writer.stop()
        let path = folder.url.appendingPathComponent("2019-09-23 09.44.45 +0000 test")
        #expect(RecordingHarness.lines(path, "events.jsonl").map(\.count) == [99, 49])
        #expect(!FileManager.default.fileExists(atPath: path.appendingPathComponent("frames.csv").path))
    }

    @Test("appends are whole lines, in order, however the writer thread interleaves")
    func lineAtomic() throws {
        let folder = try TemporaryFolder()
        let writer = RecordingWriter(store: RecordingStore(root: folder.url))
        writer.begin(folder: "2019-09-23 09.44.45 +0000 test")
        for i in 0..<20_000 {
            writer.append(Array("line \(i) \(String(repeating: "x", count: i % 97))\n".utf8), to: "a.txt")
            if i % 1000 == 0 { writer.flushSoon() }
        }
        writer.end(renamingTo: "2019-09-23 09.44.45 +0000 test \u{2013} done 2019-09-23 09.44.46 +0000")
        writer.stop()
        let lines = RecordingHarness.lines(folder.url.appendingPathComponent("2019-09-23 09.44.45 +0000 test \u{2013} done 2019-09-23 09.44.46 +0000"), "a.txt")
        #expect(lines.count == 20_000)
        #expect(lines.enumerated().allSatisfy { i, line in line == "line \(i) \(String(repeating: "x", count: i % 97))" })
    }

    /// The longest frame line for `controls` controls after a day at 240 frames/s on a machine up for 11 days.
    static func worstFrameLine(controls: Int) -> [UInt8] {
        let record = FrameRecord(index: 20_735_999, deadline: 999_999.123456, time: 999_999.124567, missed: true,
                                 trial: 99_999, phase: .flicker, objIDs: (0..<controls).map { UInt8($0 % 256) },
                                 states: (0..<controls).map { UInt8($0 % 2) })
        return RecordingLine.frame(record, wallTime: 1_999_999_999.123)
    }

    @Test("frame lines stay under 200 MB per hour at 240 frames/s for 9, 36 and 255 controls")
    func volume() {
        let perHour = 240.0 * 3600
        var report: [String] = []
        for (controls, budget) in [(9, 80), (36, 90), (255, 150)] {
            let line = Self.worstFrameLine(controls: controls)
            let megabytes = Double(line.count) * perHour / 1e6
            #expect(line.count <= budget, "\(controls) controls: \(line.count) bytes")
            #expect(megabytes < 200)
            let stimulus = UtopiaCodec.encode(.stimulusEvent(StimulusEvent(timestamp: 1, objIDs: (1...UInt8(controls)).map { $0 },
                                                                           objStates: Array(repeating: 1, count: controls))))
            let decoderLine = 36 + 2 * stimulus.count
            report.append("\(controls) controls: frame line \(line.count) B = \(String(format: "%.1f", megabytes)) MB/h; "
                          + "decoder.csv STIMULUSEVENT line \(decoderLine) B = \(String(format: "%.1f", Double(decoderLine) * perHour / 1e6)) MB/h")
        }
        print("recording volume at 240 frames/s, worst case:\n  " + report.joined(separator: "\n  "))
    }
}
