import Foundation
import Testing
import UtopiaProtocol
@testable import NoiseTagging

@Suite("Files in a recording")
struct RecordingFilesTests {
    /// A session in one "training" recording: 2 TrainSimple trials (the
    /// decoder right once), 2 Test trials (a brain press of b2, a touch press
    /// of b3), 2 Verify trials (brain presses of the target), a late frame,
    /// a decoder disconnect, and client files.
    static func session() throws -> RecordingHarness {
        let h = try RecordingHarness { s in
            for (title, value) in [(NoiseTagSettingTitles.nSimpleTrainTrials, NoiseTagSettingValue.int(2)),
                                   (.trialDurationSimpleTrain, .double(0.5)), (.cueDuration, .double(0.2)),
                                   (.pauseAfterCue, .double(0.1)), (.minTrialDuration, .double(0.2)),
                                   (.timeInBetweenTrials, .double(0.2)), (.feedbackDuration, .double(0.2))] {
                try s.set(value: value, for: title)
            }
        }
        let e = h.engine
        e.link.monitorsLiveness = true
        let beat = { e.link.deliver(.heartbeat(Heartbeat(timestamp: e.clock.utopiaTimestamp))) }
        h.controller.set(mode: .trainSimple)
        beat()
        e.start()
        // Training: predict the target once in the first trial's flicker, a wrong object in the second.
        for number in 1...2 {
            e.run(untilTrue: { e.controller.currentPhase == .flicker && e.controller.trialsStarted == number })
            beat()
            e.run(for: 0.1)
            let target = e.trialStarts.last.flatMap { if case .trialStarted(let s) = $0.kind { return s.targetObjectID } else { return nil } } ?? 1
            e.predict(objectID: number == 1 ? target : (target % 4) + 1, perr: 0.3)
            e.run(untilTrue: { !e.controller.trialInProgress })
        }
        // Test: a brain press of b2, then a touch press of b3.
        e.run(untilTrue: { e.controller.mode == .test && e.controller.currentPhase == .flicker })
        beat()
        e.run(for: 0.3)
        e.predict(objectID: 2, perr: 0.01)
        e.run(untilTrue: { !e.controller.trialInProgress })
        e.run(untilTrue: { e.controller.currentPhase == .flicker })
        beat()
        e.controller.touchPress(e.buttons[2])
        // Verify: the decoder names the target.
        e.controller.set(mode: .verify)
        for _ in 1...2 {
            e.run(untilTrue: { e.controller.currentPhase == .flicker })
            beat()
            e.run(for: 0.3)
            let target = e.trialStarts.last.flatMap { if case .trialStarted(let s) = $0.kind { return s.targetObjectID } else { return nil } } ?? 1
            e.predict(objectID: target, perr: 0.01)
            e.run(untilTrue: { !e.controller.trialInProgress })
        }
        e.controller.trialsAreRunning = false
        // A late frame through the frame loop, then the decoder goes silent.
        let waiter = VirtualFrameWaiter(clock: e.clock)
        waiter.delay(frame: 3, by: 0.05)
        FrameLoop(controller: e.controller, waiter: waiter).run(frames: 10)
        e.run(for: 4)
        // Client files.
        #expect(h.controller.append(text: "too bright\nbut fine\n", toFileNamed: "feedback.txt"))
        #expect(h.controller.append(line: "subject 12", toFileNamed: "notes.txt"))
        #expect(h.controller.append(toCSVNamed: "answers", cells: ["q1", "yes, \"really\""]))
        #expect(!h.controller.append(line: "x", toFileNamed: "frames.csv"))
        #expect(!h.controller.append(line: "x", toFileNamed: "../escape.txt"))
        return h
    }

    @Test("every file has its documented columns, engine and wall times, and reads back")
    func files() throws {
        let h = try Self.session()
        #expect(h.folders().map { RecordingName(folderName: $0)!.startReason } == ["App started", "training"])
        let folder = h.currentURL
        let lines = { (file: RecordingFile) in RecordingHarness.lines(folder, file.rawValue) }
        let start = RecordingHarness.start.timeIntervalSince1970

        // events.jsonl: one JSON object per line with time, wall_time and type.
        let events = try lines(.events).map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(events.first?["type"] as? String == "recordingStarted")
        #expect(events.allSatisfy { $0["time"] is Double && ($0["wall_time"] as? Double ?? 0) >= start && $0["type"] is String })
        let types = Set(events.compactMap { $0["type"] as? String })
        #expect(types.isSuperset(of: ["modeChanged", "trialStarted", "trialPhase", "trialEnded", "press", "unitPushed",
                                      "blocked", "unblocked", "settingChanged", "decoderConnection", "missedFrame"]))

        // decoder.csv: the raw bytes decode to the message named by `id`, both directions.
        let decoder = lines(.decoder)
        #expect(decoder.first == RecordingFile.decoder.header)
        var directions = Set<String>()
        for line in decoder.dropFirst() {
            let cells = CSVRow.cells(of: line)
            #expect(cells.count == 5 && Double(cells[0]) != nil && Double(cells[1])! >= start)
            let bytes = try #require(RecordingLine.bytes(hex: Substring(cells[4])))
            let message = try #require(try UtopiaCodec.decode(frame: bytes).first)
            #expect(String(UnicodeScalar(message.messageID)) == cells[3])
            directions.insert(cells[2])
        }
        #expect(directions == ["in", "out"])
        // Every STIMULUSEVENT was sent after the "training" recording started.
        #expect(decoder.filter { $0.contains(",out,E,") }.count == h.engine.link.sent.filter { $0.messageID == UInt8(ascii: "E") }.count)

        // frames.csv: increasing index, missed flag, trial and phase, states that decode.
        let frames = lines(.frames).dropFirst().map { CSVRow.cells(of: $0) }
        #expect(frames.allSatisfy { $0.count == 8 })
        #expect(frames.contains { $0[4] == "1" })
        let training = frames.filter { $0[6] == "f" && $0[7].hasPrefix("5b") }
        #expect(!training.isEmpty && training.allSatisfy { RecordingLine.states(from: $0[7])?.count == 5 })
        #expect(frames.contains { $0[6] == "c" && $0[7].isEmpty } && frames.contains { $0[5].isEmpty })

        // presses.csv
        let presses = lines(.presses)
        #expect(presses.first == RecordingFile.presses.header)
        let rows = presses.dropFirst().map { CSVRow.cells(of: $0) }
        #expect(rows.map { [$0[3], $0[5]] } == [["b2", "brain"], ["b3", "touch"], [rows[2][7], "brain"], [rows[3][7], "brain"]])
        // The certainty in full: the Float Perr 0.01 on the wire makes it 0.99 to within a Float's digits.
        #expect(Double(rows[0][6]).map { abs($0 - 0.99) < 1e-7 } == true && rows[0][6].count > 8, "\(rows[0][6])")
        #expect(rows[1][6].isEmpty && rows[1][4] == "3" && !rows[2][7].isEmpty)

        // trials.jsonl
        let trials = try lines(.trials).map { try JSONDecoder().decode(RecordedTrial.self, from: Data($0.utf8)) }
        #expect(trials.map(\.mode) == ["TrainSimple", "TrainSimple", "Test", "Test", "Verify", "Verify"])
        #expect(trials.map(\.ending) == ["completed", "completed", "pressed-brain", "pressed-touch", "pressed-brain", "pressed-brain"])
        let first = trials[0]
        #expect(first.cueTime! < first.pauseTime! && first.pauseTime! < first.flickerTime! && first.flickerTime! < first.endTime)
        #expect(first.objectIDs == [0, 1, 2, 3, 4] && first.target != nil && first.codeShift != nil && first.startWallTime >= start)
        #expect(trials[2].pressed == "b2" && trials[2].pressedObjectID == 2 && trials[2].source == "brain" && trials[2].objectIDs == [1, 2, 3, 4])
        #expect(trials[4].pressed == trials[4].target)
        let required = h.engine.settings.doubleFor(.certaintyRequiredForPress)
        #expect(trials.map(\.requiredCertainty) == [nil, nil, required, required, required, required], "prediction trials only")

        // settings.json is a settings file.
        let settings = NoiseTagSettings()
        try settings.load(from: folder.appendingPathComponent(RecordingFile.settings.rawValue))
        #expect(settings.intFor(.nSimpleTrainTrials) == 2 && settings.textFor(.mode) == "TrainSimple")

        // Client files, and the refusals.
        #expect(RecordingHarness.lines(folder, "feedback.txt") == ["too bright", "but fine"])
        #expect(RecordingHarness.lines(folder, "notes.txt") == ["subject 12"])
        #expect(RecordingHarness.lines(folder, "answers.csv") == ["q1,\"yes, \"\"really\"\"\""])
        #expect(h.engine.refusals.filter { $0.contains("is not a file name a client may write") }.count == 2)
    }

    @Test("show: what the decoder said in LOG lines, in order, control characters escaped")
    func decoderLog() throws {
        let h = try Self.session()
        h.controller.stopRecording()
        h.recorder.waitUntilWritten()
        let entry = try #require(h.store.recordings().last)
        let said = UtopiaCodec.encode(.log(Log(timestamp: 0, message: "decoder: fitted\u{1B}[2J")))
        let row = "99999.5,0,in,L," + said.map { String(format: "%02x", $0) }.joined() + "\n"
        let handle = try FileHandle(forWritingTo: entry.url.appendingPathComponent(RecordingFile.decoder.rawValue))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(row.utf8))
        try handle.close()
        let s = RecordingSummary(entry)
        #expect(s.decoderLogCount == 1 && s.decoderLog == ["99999.500 decoder: fitted\\u{1B}[2J"], "\(s.decoderLog)")
    }

    @Test("show: trials by mode, accuracy, presses by source, missed frames, disconnects, time spans")
    func summary() throws {
        let h = try Self.session()
        h.recorder.waitUntilWritten()
        let entry = try #require(h.store.recordings().last)
        #expect(entry.state == .open)
        let s = RecordingSummary(entry)
        #expect(s.trialsByMode == ["TrainSimple": 2, "Test": 2, "Verify": 2] && s.trials == 6)
        #expect(s.accuracy["training"] == RecordingSummary.Accuracy(trials: 0, correct: 0, decoderTrials: 2, decoderCorrect: 1))
        #expect(s.accuracy["Verify"] == RecordingSummary.Accuracy(trials: 2, correct: 2, decoderTrials: 2, decoderCorrect: 2))
        #expect(s.pressesBySource == ["brain": 3, "touch": 1] && s.presses == 4)
        #expect(s.missedFrames >= 1 && s.frames > 100)
        #expect(s.missedFrames == s.framesLate + s.framesSkipped && s.framesLate >= 1, "missed: the rows run late and the frames skipped")
        #expect(s.decoderDisconnects == 1 && s.decoderMessagesIn > 0 && s.decoderMessagesOut > s.decoderMessagesIn)
        #expect(s.spans.seconds! > 5 && s.spans.trialSeconds > 0 && s.spans.flickerSeconds < s.spans.trialSeconds)
        #expect(s.partialLines == 0 && s.droppedLines == 0 && s.problems == 0 && s.end == nil)
        h.controller.stopRecording()
        let closed = try #require(h.store.recordings().last)
        #expect(closed.state == .closed && closed.name.endReason == "App ended")
        #expect(RecordingSummary(closed).trials == 6 && RecordingSummary(closed).inconsistencies.isEmpty)
        // In a closed recording every line was written once: one written twice is said too.
        let trialLines = try String(contentsOf: closed.url.appendingPathComponent("trials.jsonl"), encoding: .utf8)
        try (trialLines + trialLines.split(separator: "\n")[0] + "\n").write(to: closed.url.appendingPathComponent("trials.jsonl"), atomically: true, encoding: .utf8)
        #expect(RecordingSummary(closed).inconsistencies == ["trials.jsonl holds 7 trial(s), events.jsonl logged 6 trial end(s)"])
        // A time no clock keeps (a damaged number) is said and kept out of the spans.
        var first = try #require(trialLines.split(separator: "\n").first.map(String.init))
        first.replace(#/"end_time":[0-9.]+/#, with: "\"end_time\":1e308")
        try (first + "\n" + trialLines.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n")
            .write(to: closed.url.appendingPathComponent("trials.jsonl"), atomically: true, encoding: .utf8)
        let absurd = RecordingSummary(closed)
        #expect(absurd.inconsistencies == ["a time beyond any clock the engine keeps (time 1e+308 s): such times are left out of the spans"])
        #expect(absurd.spans.seconds! < 1e6 && absurd.spans.trialSeconds < 1e6)
        // A lost trials.jsonl, an emptied presses.csv and a damaged events line are said, not taken for a quiet session.
        try FileManager.default.removeItem(at: closed.url.appendingPathComponent("trials.jsonl"))
        try "time,wall_time,trial,control,object_id,source,certainty,target\n".write(to: closed.url.appendingPathComponent("presses.csv"), atomically: true, encoding: .utf8)
        let events = try String(contentsOf: closed.url.appendingPathComponent("events.jsonl"), encoding: .utf8)
        try ("{\"type\": broken\n" + events).write(to: closed.url.appendingPathComponent("events.jsonl"), atomically: true, encoding: .utf8)
        #expect(RecordingSummary(closed).inconsistencies == [
            "events.jsonl: 1 row(s) cannot be read (line 1): left out",
            "trials.jsonl holds 0 trial(s), events.jsonl logged 6 trial end(s)",
            "presses.csv holds 0 press(es), events.jsonl logged 4",
        ])
        // No trial left to score: both accuracy keys stay, at zero (as the text prints both).
        #expect(RecordingSummary(closed).accuracy == ["training": .init(), "Verify": .init()])
        // A settings snapshot replay cannot read is said too.
        try "{\"certaintyRequiredForPress\": 0.9, garbage!!".write(to: closed.url.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
        let said = RecordingSummary(closed).inconsistencies
        #expect(said.contains("settings.json: not a JSON object of settings: not JSON: an unexpected 'g' at line 1, column 36 (a member's name in \" belongs here): replay cannot start from it"), "\(said)")
    }

    @Test("show: CSV columns are found by their header, and rows that cannot be read are said and left out")
    func csvColumnsAndBadRows() throws {
        let h = try Self.session()
        h.controller.stopRecording()
        let closed = try #require(h.store.recordings().last)
        let before = RecordingSummary(closed)
        func rewrite(_ name: String, _ change: ([[String]]) -> [[String]]) throws {
            let url = closed.url.appendingPathComponent(name)
            let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            try (change(rows).map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        // The last column moved to the front, header and rows alike: still the same recording.
        for name in ["decoder.csv", "frames.csv", "presses.csv"] { try rewrite(name) { $0.map { [$0.last!] + $0.dropLast() } } }
        let moved = RecordingSummary(closed)
        #expect(moved.inconsistencies.isEmpty, "\(moved.inconsistencies)")
        #expect((moved.decoderMessagesIn, moved.decoderMessagesOut, moved.frames, moved.missedFrames, moved.pressesBySource)
            == (before.decoderMessagesIn, before.decoderMessagesOut, before.frames, before.missedFrames, before.pressesBySource))
        // A garbage row in each: counted out and said, with its line.
        for name in ["decoder.csv", "frames.csv", "presses.csv"] { try rewrite(name) { rows in var r = rows; r[2] = ["x", "y", "z"]; return r } }
        let damaged = RecordingSummary(closed)
        #expect(damaged.presses == before.presses - 1 && damaged.pressesBySource[""] == nil)
        #expect(damaged.frames == before.frames - 1)
        #expect(damaged.decoderMessagesIn + damaged.decoderMessagesOut + damaged.decoderMessagesUnsent
            == before.decoderMessagesIn + before.decoderMessagesOut + before.decoderMessagesUnsent - 1)
        for name in ["decoder.csv", "frames.csv", "presses.csv"] {
            #expect(damaged.inconsistencies.contains("\(name): 1 row(s) cannot be read (line 3): left out"), "\(damaged.inconsistencies)")
        }
        // A row with one cell too many is that row alone (it had made every presses.csv row unreadable).
        try rewrite("presses.csv") { rows in var r = rows; r[2] = r[1] + ["abc"]; return r }
        let wide = RecordingSummary(closed)
        #expect(wide.presses == damaged.presses)
        #expect(wide.inconsistencies.contains("presses.csv: 1 row(s) cannot be read (line 3): left out"), "\(wide.inconsistencies)")
        // A header without a column the reader needs: said, and the file not read.
        try rewrite("frames.csv") { rows in var r = rows; r[0] = r[0].map { $0 == "missed" ? "late" : $0 }; return r }
        #expect(RecordingSummary(closed).inconsistencies.contains { $0.hasPrefix("frames.csv: the header has no 'missed' column") })
    }
}
