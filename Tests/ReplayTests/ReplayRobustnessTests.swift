import Foundation
import NoiseTagging
import DecoderService
import Replay
import Testing

/// Crashed, cut, newer and unreadable recordings.
@Suite struct ReplayRobustnessTests {
    static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A copy of `folder` as a crash at engine time `time` leaves it: left part only, every
    /// file cut after its last line before `time`, and a half line after it.
    static func crashedCopy(of folder: URL, at time: Double) throws -> URL {
        let name = RecordingName(folderName: folder.lastPathComponent)!
        let copy = folder.deletingLastPathComponent().appendingPathComponent(name.leftPart + " (2)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for file in ["events.jsonl", "trials.jsonl", "decoder.csv", "frames.csv", "presses.csv", "settings.json"] {
            let source = folder.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            if file == "settings.json" { try FileManager.default.copyItem(at: source, to: copy.appendingPathComponent(file)); continue }
            var kept: [String] = []
            for (k, line) in try lines(source).enumerated() {
                let t: Double?
                if line.hasPrefix("{") {
                    let key = file == "trials.jsonl" ? "\"end_time\":" : "\"time\":"
                    t = line.range(of: key).flatMap { r in Double(line[r.upperBound...].prefix { "0123456789.".contains($0) }) }
                } else {
                    let cells = line.split(separator: ",")
                    t = k == 0 ? nil : Double(cells[file == "frames.csv" ? 2 : 0])
                }
                if let t, t > time { break }
                kept.append(line)
            }
            try (kept.joined(separator: "\n") + "\n" + "{\"cut").write(to: copy.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return copy
    }

    @Test func aCrashedRecordingReplaysUpToItsLastCompleteTrial() throws {
        let session = try ScriptedSession()
        let script = try RecordingScript(folder: session.folder)
        let fifth = try #require(script.starts.first { $0.value.trial == 5 })
        let crashed = try Self.crashedCopy(of: session.folder, at: fifth.time + 0.3)
        let cut = try RecordingScript(folder: crashed)
        #expect(cut.isOpen)
        #expect(cut.notes.contains { $0.contains("cut off") })
        let report = RecordingReplay(script: cut).run()
        #expect(report.trials.map(\.trial) == [1, 2, 3, 4])
        #expect(report.unfinishedTrial == 5)
        #expect(report.diverged == 0, "\(report.text())")
        #expect(report.text().contains("trial 5 never ended in the recording (it crashed); replayed up to the last complete trial (4)"))
        #expect(report.isOpen && report.exitCode == 0)
        #expect(report.text().contains("(crashed: never closed)"))
        // The same folder while an engine holds it (its lock): still being recorded, not crashed.
        let fd = open(crashed.path, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let live = RecordingReplay(script: try RecordingScript(folder: crashed)).run()
        #expect(live.text().contains("(still being recorded)") && live.text().contains("trial 5 is still running; replayed up to"))
    }

    @Test func aClosedRecordingThatLostEventLinesSaysWhichTrialsAndReplaysTheRest() throws {
        let session = try ScriptedSession(seconds: 30)
        let events = session.folder.appendingPathComponent("events.jsonl")
        let all = try Self.lines(events)
        let full = try RecordingScript(folder: session.folder)
        // The session closed during its last trial: trials.jsonl holds the ended ones.
        let ended = full.recordedTrials.keys.sorted()
        #expect(!full.isOpen && ended.count >= 7 && ended == full.starts.dropLast().map(\.value.trial))
        // Trial 3's trialEnded line lost: trial 3 is not replayable, every later trial replays.
        try (all.filter { !($0.contains("\"type\":\"trialEnded\"") && $0.contains("\"trial\":3,")) }.joined(separator: "\n") + "\n")
            .write(to: events, atomically: true, encoding: .utf8)
        let lost = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        #expect(lost.trials.map(\.trial) == ended, "\(lost.text())")
        #expect(lost.unreplayable == 1 && lost.identical == ended.count - 1 && lost.exitCode == 1)
        #expect(lost.trials[2].problem == "events.jsonl holds no end of it, though trial 4 started after it (trials.jsonl holds it: a line of events.jsonl lost or damaged)")
        #expect(lost.unfinishedTrial == full.starts.last?.value.trial)
        // events.jsonl cut after trial 4's end: the trials trials.jsonl holds beyond it are not replayable.
        let fourth = try #require(all.firstIndex { $0.contains("\"type\":\"trialEnded\"") && $0.contains("\"trial\":4,") })
        try (all.prefix(fourth + 1).joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        let cut = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        #expect(cut.trials.map(\.trial) == ended, "\(cut.text())")
        #expect(cut.identical == 4 && cut.unreplayable == ended.count - 4 && cut.exitCode == 1)
        #expect(cut.trials[4].problem == "trials.jsonl holds it, but events.jsonl never started it (its lines lost or damaged)")
        #expect(cut.text().hasSuffix("replayed \(ended.count) trials: 4 identical, 0 diverged, \(ended.count - 4) not replayable"))
    }

    @Test func aLostLastFrameLineIsRebuiltFromTheTrialsEnd() throws {
        let session = try ScriptedSession(seconds: 12)
        let script = try RecordingScript(folder: session.folder)
        let end = try #require(script.ends.first { $0.value.ending == .pressed(.brain) })
        let crashed = try Self.crashedCopy(of: session.folder, at: end.time)
        // The crash came before the frame line of the tick the trial ended in reached the disk.
        let frames = crashed.appendingPathComponent("frames.csv")
        var rows = try Self.lines(frames).dropLast()        // the cut-off half line
        #expect(rows.last?.contains(String(format: "%.6f", end.time)) == true)
        rows = rows.dropLast()
        try (rows.joined(separator: "\n") + "\n").write(to: frames, atomically: true, encoding: .utf8)
        let report = RecordingReplay(script: try RecordingScript(folder: crashed)).run()
        #expect(report.trials.map(\.trial) == Array(1...end.value.trial))
        #expect(report.diverged == 0, "\(report.text())")
        #expect(report.notes.contains("trial \(end.value.trial): its last frame line was lost; that tick was rebuilt from the trial's end time"))
    }

    @Test func untilTrialStopsThere() throws {
        let session = try ScriptedSession(seconds: 12)
        var replay = RecordingReplay(script: try RecordingScript(folder: session.folder))
        replay.untilTrial = 3
        #expect(replay.run().trials.map(\.trial) == [1, 2, 3])
    }

    @Test func newerKindsAndColumnsAreSkippedAndSaid() throws {
        let session = try ScriptedSession(seconds: 12)
        let events = session.folder.appendingPathComponent("events.jsonl")
        var lines = try Self.lines(events)
        lines.insert("{\"time\":1001.5,\"type\":\"somethingNewer\",\"wall_time\":1795000001.5}", at: 3)
        try (lines.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        let frames = session.folder.appendingPathComponent("frames.csv")
        let rows = try Self.lines(frames).enumerated().map { $0.offset == 0 ? $0.element + ",newer" : $0.element + ",7" }
        try (rows.joined(separator: "\n") + "\n").write(to: frames, atomically: true, encoding: .utf8)
        let script = try RecordingScript(folder: session.folder)
        #expect(script.notes.contains { $0.contains("'somethingNewer'") })
        let report = RecordingReplay(script: script).run()
        #expect(report.trials.count >= 4 && report.diverged == 0)
    }

    @Test func anEmptyOrHeadlessEventLogIsSaidForWhatItIs() throws {
        let session = try ScriptedSession(seconds: 4)
        let events = session.folder.appendingPathComponent("events.jsonl")
        let lines = try Self.lines(events)
        try (lines.dropFirst().joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        let headless = try RecordingScript(folder: session.folder)
        #expect(headless.format == RecordingFormat.current)
        #expect(headless.notes.contains { $0.hasPrefix("events.jsonl has no recordingStarted line") })
        try Data().write(to: events)
        // Trials recorded but no event to replay them from: the recording is damaged, not empty.
        do { _ = try RecordingScript(folder: session.folder); Issue.record("replayed an emptied event log") } catch {
            #expect(error.file == "events.jsonl" && error.reason.hasPrefix("holds no event, but trials.jsonl records"))
        }
        try Data().write(to: session.folder.appendingPathComponent("trials.jsonl"))
        let empty = try RecordingScript(folder: session.folder)
        #expect(empty.notes.contains { $0.hasPrefix("events.jsonl holds no event") })
        #expect(!empty.notes.contains { $0.contains("before replay support") })
    }

    @Test func unreadableLinesNameTheFileAndLine() throws {
        let session = try ScriptedSession(seconds: 8)
        let events = session.folder.appendingPathComponent("events.jsonl")
        let original = try Self.lines(events)
        var lines = original
        lines[6] = "{\"time\": not json"
        try (lines.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        #expect(throws: RecordingReadError(file: "events.jsonl", line: 7, reason: "unreadable event line: not JSON: an unexpected 'n' at line 1, column 10 (a value belongs here)")) {
            _ = try RecordingScript(folder: session.folder)
        }
        // A trial number with a fraction: the field is named, not the fractions that belong where they are.
        lines = original
        let started = try #require(lines.firstIndex { $0.contains("\"type\":\"trialStarted\"") })
        lines[started] = lines[started].replacingOccurrences(of: "\"trial\":1,", with: "\"trial\":1.5,")
        try (lines.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        #expect(throws: RecordingReadError(file: "events.jsonl", line: started + 1, reason: "unreadable trialStarted event: \"trial\" must be a whole number (it is 1.5)")) {
            _ = try RecordingScript(folder: session.folder)
        }
        // A trialStarted line written twice: named, not replayed as one more identical trial.
        lines = original
        lines.insert(lines[started], at: started + 1)
        try (lines.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        #expect(throws: RecordingReadError(file: "events.jsonl", line: started + 2, reason: "trial 1 starts a second time (first at line \(started + 1)): a line written twice?")) {
            _ = try RecordingScript(folder: session.folder)
        }
        let other = try ScriptedSession(seconds: 8)
        let decoder = other.folder.appendingPathComponent("decoder.csv")
        var rows = try Self.lines(decoder)
        rows[5] = rows[5].replacingOccurrences(of: ",in,", with: ",sideways,").replacingOccurrences(of: ",out,", with: ",sideways,")
        try (rows.joined(separator: "\n") + "\n").write(to: decoder, atomically: true, encoding: .utf8)
        do { _ = try RecordingScript(folder: other.folder); Issue.record("read a bad decoder.csv") } catch {
            #expect(error.file == "decoder.csv" && error.line == 6 && error.reason.contains("sideways"))
        }
        // A damaged hex cell holding a carriage return and an escape: the error stays one line.
        rows = try Self.lines(decoder)
        let cells = rows[4].split(separator: ",", omittingEmptySubsequences: false)
        rows[4] = (cells.dropLast() + ["48\r\u{1B}[2J00"]).joined(separator: ",")
        try (rows.joined(separator: "\n") + "\n").write(to: decoder, atomically: true, encoding: .utf8)
        do { _ = try RecordingScript(folder: other.folder); Issue.record("read a damaged hex cell") } catch {
            #expect(error.description == "decoder.csv:5: the hex cell is not a Utopia frame: '48\\r\\u{1B}[2J00'")
        }
        // A frame row overwritten in the middle of frames.csv reads as a row, but goes back: damage, not a divergence.
        let frames = other.folder.appendingPathComponent("frames.csv")
        var frameRows = try Self.lines(frames)
        frameRows[40] = "1,2,3"
        try (frameRows.joined(separator: "\n") + "\n").write(to: frames, atomically: true, encoding: .utf8)
        do { _ = try RecordingScript(folder: other.folder); Issue.record("read a frame row that goes back") } catch {
            #expect(error.file == "frames.csv" && error.line == 41 && error.reason.hasPrefix("frame 1 at 3.0 s follows frame"))
        }
        // A time that is no number is damage too, in frames.csv and in decoder.csv (it was a divergence, or a row dropped).
        frameRows[40] = try Self.lines(frames)[39]
        let good = frameRows[40].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        frameRows[40] = ([good[0], "nan", "nan"] + good.dropFirst(3)).joined(separator: ",")
        try (frameRows.joined(separator: "\n") + "\n").write(to: frames, atomically: true, encoding: .utf8)
        do { _ = try RecordingScript(folder: other.folder); Issue.record("read a frame row timed NaN") } catch {
            #expect(error.file == "frames.csv" && error.line == 41 && error.reason.hasPrefix("a time that is no number (deadline nan, time nan)"))
        }
        let thirdSession = try ScriptedSession(seconds: 8)
        let third: URL = thirdSession.folder
        let messages = third.appendingPathComponent("decoder.csv")
        var messageRows = try Self.lines(messages)
        let row = messageRows[4].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        messageRows[4] = (["nan"] + row.dropFirst()).joined(separator: ",")
        try (messageRows.joined(separator: "\n") + "\n").write(to: messages, atomically: true, encoding: .utf8)
        do { _ = try RecordingScript(folder: third); Issue.record("read a message row timed NaN") } catch {
            #expect(error.file == "decoder.csv" && error.line == 5 && error.reason.hasPrefix("time nan is no number"))
        }
        try FileManager.default.removeItem(at: frames)
        do { _ = try RecordingScript(folder: other.folder); Issue.record("read without frames.csv") } catch {
            #expect(error.description == "frames.csv: missing or unreadable: replay needs it")
        }
    }

    @Test func aRecordingWithoutEngineStateSaysWhatIsMissing() throws {
        let session = try ScriptedSession(seconds: 8)
        let events = session.folder.appendingPathComponent("events.jsonl")
        let stripped = try Self.lines(events).map { line -> String in
            guard line.contains("\"type\":\"trialStarted\""), let r = line.range(of: ",\"state\":{") else { return line }
            // Drop the state object: it is the only nested object in a trialStarted line.
            var depth = 0, end = r.upperBound
            for index in line[r.upperBound...].indices {
                if line[index] == "{" { depth += 1 }
                if line[index] == "}" { if depth == 0 { end = line.index(after: index); break }; depth -= 1 }
            }
            return String(line[..<r.lowerBound] + line[end...])
        }
        try (stripped.joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
        let report = RecordingReplay(script: try RecordingScript(folder: session.folder)).run()
        #expect(!report.trials.isEmpty)
        #expect(report.trials.allSatisfy { $0.problem?.contains("no logged engine state") == true })
        #expect(report.exitCode == 1)
        // Counted as not replayable, not as diverged.
        #expect(report.diverged == 0 && report.unreplayable == report.trials.count)
        #expect(report.text().hasSuffix("replayed \(report.trials.count) trials: 0 identical, 0 diverged, \(report.trials.count) not replayable"))
    }
}

@Suite struct RedecodeInputTests {
    @Test func aRecordingWithoutDecoderInputCannotBeRedecoded() throws {
        let session = try ScriptedSession(seconds: 6)
        let script = try RecordingScript(folder: session.folder)
        do { _ = try RedecodedPredictions(script: script, settings: DecoderServerSettings()); Issue.record("re-decoded nothing") } catch {
            #expect(error.file == "decoder-input.csv" && error.line == 0 && error.reason.hasPrefix("missing"))
        }
        try "time,id,hex\n1000.5,E,zz\n".write(to: session.folder.appendingPathComponent("decoder-input.csv"), atomically: true, encoding: .utf8)
        do { _ = try RedecodedPredictions(script: script, settings: DecoderServerSettings()); Issue.record("read a bad row") } catch {
            #expect(error.file == "decoder-input.csv" && error.line == 2)
        }
        // A header alone is no input: said, rather than every press re-decoded away.
        try "time,id,hex\n".write(to: session.folder.appendingPathComponent("decoder-input.csv"), atomically: true, encoding: .utf8)
        do { _ = try RedecodedPredictions(script: script, settings: DecoderServerSettings()); Issue.record("re-decoded an empty input") } catch {
            #expect(error.file == "decoder-input.csv" && error.reason.hasPrefix("holds no record"))
        }
    }
}

@Suite struct RecordingFormatTests {
    @Test func theFormatIsReadAndANewerOneIsSaid() throws {
        let session = try ScriptedSession(seconds: 6)
        #expect(try RecordingScript(folder: session.folder).format == RecordingFormat.current)
        let events = session.folder.appendingPathComponent("events.jsonl")
        let text = try String(contentsOf: events, encoding: .utf8)
        try text.replacingOccurrences(of: "\"format\":\(RecordingFormat.current)", with: "\"format\":9")
            .write(to: events, atomically: true, encoding: .utf8)
        let newer = try RecordingScript(folder: session.folder)
        #expect(newer.format == 9 && newer.notes.contains { $0.contains("newer engine (recording format 9") })
        #expect(RecordingReplay(script: newer).run().diverged == 0)
    }

    @Test func aFormatTwoRecordingIsSaidToDifferInItsVerifyTrials() throws {
        let session = try ScriptedSession(seconds: 6)
        let events = session.folder.appendingPathComponent("events.jsonl")
        let text = try String(contentsOf: events, encoding: .utf8)
        try text.replacingOccurrences(of: "\"format\":\(RecordingFormat.current)", with: "\"format\":2")
            .write(to: events, atomically: true, encoding: .utf8)
        let older = try RecordingScript(folder: session.folder)
        #expect(older.format == 2)
        #expect(older.notes.contains { $0.contains("older engine (recording format 2): its Verify trials sent no object 0") })
    }
}
