import DecoderService
import Foundation
import Study
import Testing
import JSONSupport
import LabFormats

/// The session folder keeps every finished step on disk: a result is one
/// line flushed as the step ends, a line cut off by a crash is ignored and
/// never glued to the next, and `--resume` knows where to go on.
@Suite struct SessionFolderTests {
    static let plan = try! SessionProtocol.parse(Data("""
    {"name": "t", "steps": [{"kind": "signalCheck", "seconds": 2, "onFailure": "stop"},
                            {"kind": "calibration", "trials": 5},
                            {"kind": "copySpell", "text": "HI"},
                            {"kind": "zeroTrain", "text": "HI"},
                            {"kind": "break", "seconds": 1}]}
    """.utf8))

    static func folder() throws -> (SessionFolder, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString)")
        let manifest = SessionManifest(participant: "P-01", protocolFile: "t.json", protocol: plan.json, startedWallTime: 1,
                                       seed: 3, simulated: true, snr: 0.05)
        return (try SessionFolder.create(in: root, manifest: manifest, now: Date(timeIntervalSince1970: 1_795_624_039)), root)
    }

    static func result(_ step: Int, _ kind: String, _ outcome: String = "done", measures: [String: JSONValue] = [:]) -> StepResult {
        StepResult(step: step, kind: kind, name: kind, startTime: Double(step), endTime: Double(step) + 0.5,
                   startWallTime: 100, endWallTime: 100.5, outcome: outcome, measures: measures, answers: [], recordings: ["r"])
    }

    @Test func theFolderIsNamedAfterTheStartAndTheParticipantAndReopens() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(folder.url.lastPathComponent == "2026-11-25 16.27.19 +0000 session P-01")
        let again = try SessionFolder.open(folder.url)
        #expect(again.manifest == folder.manifest)
        #expect(try again.sessionProtocol() == Self.plan)
        #expect(try again.results().isEmpty)
    }

    @Test func theDecoderSettingsAreKeptAndEveryRunOfTheSessionUsesThem() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = DecoderServerSettings()
        settings.idlePressesPerMinute = 1
        settings.lineFrequency = 60
        let manifest = SessionManifest(participant: "P-01", protocolFile: "t.json", protocol: Self.plan.json, startedWallTime: 1,
                                       seed: 3, simulated: true, snr: 0.08, decoderSettings: settings)
        let folder = try SessionFolder.create(in: root, manifest: manifest)
        // Reopened (as --resume does), the same settings, and the decoder of that run gets them, saving into the session.
        let again = try SessionFolder.open(folder.url)
        #expect(again.manifest.decoderSettings == settings)
        let options = again.demoOptions()
        #expect(options.decoderSettings == settings && options.snr == 0.08 && options.seed == 3 && options.simulatedUser)
        #expect(options.recordings.root == again.url)
        // A session started without a settings file (or written before there were any) runs on the defaults.
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("session.json"))) as! [String: Any]
        json.removeValue(forKey: "decoderSettings")
        try JSONSerialization.data(withJSONObject: json).write(to: folder.url.appendingPathComponent("session.json"))
        let older = try SessionFolder.open(folder.url)
        #expect(older.manifest.decoderSettings == nil && older.demoOptions().decoderSettings == DecoderServerSettings())
        // A bad key in a hand-edited manifest is named.
        json["decoderSettings"] = ["idlePressesPerMinute": 0]
        try JSONSerialization.data(withJSONObject: json).write(to: folder.url.appendingPathComponent("session.json"))
        do { _ = try SessionFolder.open(folder.url); Issue.record("a bad decoder setting was accepted") } catch {
            #expect(error.description.contains("idlePressesPerMinute"))
        }
    }

    @Test func resultsAreAppendedOneLineEachAndACutLastLineIsIgnoredNotGlued() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try folder.append(Self.result(1, "signalCheck", "passed"))
        // A crash in the middle of a line: that line is not a result, and the next one stays whole.
        let file = folder.url.appendingPathComponent(SessionFolder.resultsName)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"step\": 2, \"ki".utf8))
        try handle.close()
        #expect(try folder.results().map(\.step) == [1])
        try folder.append(Self.result(2, "calibration"))
        #expect(try folder.results() == [Self.result(1, "signalCheck", "passed"), Self.result(2, "calibration")])
        // Any other broken line is an error that names the file and line.
        try Data("garbage\n".utf8).write(to: file)
        #expect(throws: SessionFolder.Failure.self) { try folder.results() }
        do { _ = try folder.results() } catch { #expect(error.description.hasSuffix("steps.jsonl:1: not a step result (not JSON: an unexpected 'g' at line 1, column 1 (a value belongs here))")) }
        // A line without its step says which field, not a decoder's dump.
        try Data("{\"kind\": \"break\"}\n".utf8).write(to: file)
        do { _ = try folder.results() } catch { #expect(error.description.hasSuffix(#"steps.jsonl:1: not a step result (no "step" field)"#)) }
        // A fraction where the step number belongs is named, not three other fields.
        var fractional = Self.result(1, "signalCheck", "passed").jsonLine
        fractional = fractional.replacingOccurrences(of: #""step":1"#, with: #""step":1.5"#)
        try Data((fractional + "\n").utf8).write(to: file)
        let failure = #expect(throws: SessionFolder.Failure.self) { try folder.results() }
        #expect(failure?.description.hasSuffix(#"steps.jsonl:1: not a step result ("step" must be a whole number (it is 1.5))"#) == true)
        // Results the session cannot have written: a line twice, a step the protocol lacks, steps out of order.
        let one = Self.result(1, "signalCheck", "passed"), two = Self.result(2, "calibration")
        for (lines, message) in [([one, two, two], "steps.jsonl:3: the same result as the line before it: a line written twice"),
                                 ([one, Self.result(9, "break")], "steps.jsonl:2: step 9, but the protocol has 5 steps"),
                                 ([two, one], "steps.jsonl:2: step 1 after step 2: results are written in order")] {
            try Data(lines.map { $0.jsonLine + "\n" }.joined().utf8).write(to: file)
            #expect(throws: SessionFolder.Failure.self) { try folder.results() }
            do { _ = try folder.results() } catch { #expect(error.description.hasSuffix(message), "\(error)") }
        }
        // A failed signal check that repeats its step is a session's own order.
        try Data([one, Self.result(1, "signalCheck", "failed"), two].map { $0.jsonLine + "\n" }.joined().utf8).write(to: file)
        #expect(try folder.results().map(\.step) == [1, 1, 2])
    }

    @Test func resumeGoesOnAfterTheLastResultWithTheCalibrationToFitAgain() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try folder.resumePoint(in: Self.plan) == .init(step: 0, calibration: nil))
        // A signal check that stopped the session is checked again.
        try folder.append(Self.result(1, "signalCheck", "failed"))
        #expect(try folder.resumePoint(in: Self.plan).step == 0)
        try folder.append(Self.result(1, "signalCheck", "passed"))
        try folder.append(Self.result(2, "calibration", measures: ["calibrationDataset": .string("decoder-calibrations/c-5trials")]))
        #expect(try folder.resumePoint(in: Self.plan)
                == .init(step: 2, calibration: folder.url.appendingPathComponent("decoder-calibrations/c-5trials")))
        try folder.append(Self.result(3, "copySpell"))
        #expect(try folder.resumePoint(in: Self.plan).step == 3)
        // Zero training began from nothing: the calibration's model is not brought back after it.
        try folder.append(Self.result(4, "zeroTrain"))
        #expect(try folder.resumePoint(in: Self.plan) == .init(step: 4, calibration: nil))
    }

    @Test func aSessionRunningElsewhereCannotBeRunAgainUntilItEnds() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        var held: SessionFolderLock? = try folder.lock()
        #expect(held != nil)
        let reopened = try SessionFolder.open(folder.url)
        #expect(throws: SessionFolder.Failure.self) { _ = try reopened.lock() }
        do { _ = try reopened.lock() } catch {
            #expect(error.description.hasSuffix("another noisetag session run is using this session folder; wait for it to end (or stop it) before resuming"))
        }
        held = nil
        _ = try reopened.lock()
    }

    @Test func badFoldersAndParticipantsAreNamed() throws {
        do { _ = try SessionFolder.open(URL(fileURLWithPath: "/nonexistent/s")) } catch {
            #expect(error.description == "/nonexistent/s: no such folder")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        do { _ = try SessionFolder.open(empty) } catch {
            #expect(error.description.hasSuffix("not a session folder (no session.json; a session folder is made by noisetag session run)"))
        }
        #expect(SessionFolder.problem(withParticipant: "P01") == nil)
        #expect(SessionFolder.problem(withParticipant: "P 01") == "' ' is not allowed (letters, digits, - and _ only)")
        #expect(SessionFolder.problem(withParticipant: "../x") == "'.' is not allowed (letters, digits, - and _ only)")
        #expect(SessionFolder.problem(withParticipant: "") == "is empty")
    }
}
