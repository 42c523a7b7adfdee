import DecoderService
import Decoding
import Foundation
import Simulation
import Study
import TestSupport
import Testing
import JSONSupport
import LabFormats

/// The session report's figures, on session folders built here: Wolpaw's
/// ITR with its edge cases, false presses per minute, selection-time bins,
/// signal quality read from the decoder's messages, questionnaire answers
/// beside their questions, a sentence for every missing part, and one
/// line for a broken steps.jsonl.
@Suite struct SessionReportTests {
    static let protocolJSON = """
    {"name": "Report <test>", "description": "Checks & figures", "steps": [
      {"kind": "signalCheck", "seconds": 2},
      {"kind": "copySpell", "text": "HELLO"},
      {"kind": "freeSpell", "seconds": 30, "text": "HI"},
      {"kind": "noControl", "seconds": 90},
      {"kind": "noControl", "seconds": 30},
      {"kind": "questionnaire", "items": [
        {"id": "fatigue", "question": "How tired are you?", "type": "likert", "scale": 5, "labels": ["not at all", "very"]},
        {"id": "again", "question": "Again?", "type": "choice", "choices": ["yes", "no"]}]}
    ]}
    """

    /// A session folder in a fresh temporary root; remove `root` after.
    static func folder(protocolJSON: String = protocolJSON) throws -> (folder: SessionFolder, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(protocolJSON.utf8))
        let manifest = SessionManifest(participant: "P07", protocolFile: "report.json", protocol: json,
                                       startedWallTime: 1_795_625_033, seed: 3, simulated: true, snr: 0.05)
        return (try SessionFolder.create(in: root, manifest: manifest, now: Date(timeIntervalSince1970: 1_795_625_033)), root)
    }

    static func result(_ step: Int, _ kind: String, start: Double, end: Double, measures: [String: JSONValue] = [:],
                       answers: [StepResult.Answer] = []) -> StepResult {
        StepResult(step: step, kind: kind, name: kind, startTime: start, endTime: end, startWallTime: 1_795_625_033 + start - 1000,
                   endWallTime: 1_795_625_033 + end - 1000, outcome: "done", measures: measures, answers: answers, recordings: [])
    }

    static func selection(_ seconds: Double, intended: String?, pressed: String?, source: String?) -> JSONValue {
        .object(["seconds": .number(seconds), "intended": intended.map(JSONValue.string) ?? .null,
                 "pressed": pressed.map(JSONValue.string) ?? .null, "source": source.map(JSONValue.string) ?? .null])
    }

    static func spelling(_ kind: String = "copySpell", classes: Int?, judged: Int, correct: Int, seconds: Double,
                         selections: [JSONValue]) -> StepResult {
        var measures: [String: JSONValue] = ["judgedPresses": .number(Double(judged)), "correctPresses": .number(Double(correct)),
                                             "selections": .array(selections), "text": .string("HELLO"), "typed": .string("HELLO")]
        if let classes { measures["classes"] = .number(Double(classes)) }
        return result(2, kind, start: 1000, end: 1000 + seconds, measures: measures)
    }

    // MARK: A whole session

    /// Writes a recording folder with `decoder.csv`: two SIGNALQUALITY rows
    /// (2 channels), a STIMULUSEVENT between them, and a cut-off last line.
    static func writeRecording(in folder: SessionFolder) throws {
        func q(_ time: Double, _ values: [Float]) -> String {
            var bytes: [UInt8] = [0x51, 0, UInt8(4 + 4 * values.count), 0, 1, 0, 0, 0]
            for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
            return String(format: "%.6f,1795625000.000,in,Q,", time) + bytes.map { String(format: "%02x", $0) }.joined()
        }
        let recording = folder.url.appendingPathComponent("2026-11-25 16.43.53 +0000 App started", isDirectory: true)
        try FileManager.default.createDirectory(at: recording, withIntermediateDirectories: true)
        let lines = ["time,wall_time,direction,id,hex", q(1000.5, [0.25, 0.5]),
                     "1000.600000,1795625000.100,out,E,45000b00863724005046544d484c51",
                     q(1001.0, [0.75, 1.0]), "1001.2,1795625000.2,in,Q,5100"]
        try Data(lines.joined(separator: "\n").utf8).write(to: recording.appendingPathComponent("decoder.csv"))
    }

    static func fullSession() throws -> (folder: SessionFolder, root: URL) {
        let (folder, root) = try Self.folder()
        try writeRecording(in: folder)
        let channels: JSONValue = .array([
            .object(["channel": .number(1), "medianNoise": .number(0.21), "limit": .number(0.5), "passed": .bool(true)]),
            .object(["channel": .number(2), "medianNoise": .number(0.62), "limit": .number(0.5), "passed": .bool(false)])])
        try folder.append(Self.result(1, "signalCheck", start: 1000, end: 1002, measures: [
            "goodChannels": .number(1), "channels": channels, "attempts": .number(2), "unknownExtra": .string("ignored")]))
        var copy = Self.spelling(classes: 28, judged: 2, correct: 2, seconds: 4, selections: [
            Self.selection(1.5, intended: "H", pressed: "H", source: "brain"),
            Self.selection(2.5, intended: "I", pressed: "I", source: "touch"),
            Self.selection(10, intended: "I", pressed: "I", source: "timeout")])
        copy.startTime = 1002
        copy.endTime = 1006
        try folder.append(copy)
        try folder.append(Self.result(3, "freeSpell", start: 1006, end: 1010, measures: [
            "typed": .string("HI"), "classes": .number(28), "judgedPresses": .number(0), "correctPresses": .number(0),
            "selections": .array([Self.selection(0.75, intended: nil, pressed: "H", source: "brain")])]))
        try folder.append(Self.result(4, "noControl", start: 1010, end: 1100, measures: [
            "seconds": .number(90), "falsePresses": .number(3), "falsePressesPerMinute": .number(2)]))
        try folder.append(Self.result(5, "noControl", start: 1100, end: 1130, measures: ["seconds": .number(30), "falsePresses": .number(0)]))
        try folder.append(Self.result(6, "questionnaire", start: 1130, end: 1135, answers: [
            .init(item: "fatigue", key: 3, answer: "3", seconds: 2.1), .init(item: "again", key: 2, answer: "no", seconds: 1.4)]))
        return (folder, root)
    }

    @Test func falsePressesPerMinuteArePerStepAndOverAllNoControlStretches() throws {
        let (folder, root) = try Self.fullSession()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try SessionReport(folder: SessionFolder.open(folder.url))
        let rows = try #require(report.noControl.value)
        #expect(rows.map(\.falsePresses) == [3, 0])
        #expect(rows[0].perMinute == 2 && rows[1].perMinute == 0)
        #expect(report.falsePressesPerMinute == 1.5)   // 3 presses in 2 minutes
        #expect(report.steps.map(\.keyMeasure)[3] == "3 false presses (2.00 per minute)")
    }

    @Test func aWholeSessionGivesEveryPartButTheCalibration() throws {
        let (folder, root) = try Self.fullSession()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try SessionReport(folder: SessionFolder.open(folder.url))
        #expect(report.protocolName == "Report <test>" && report.protocolSteps == 6 && report.steps.count == 6)
        #expect(report.steps[0].keyMeasure == "1 of 2 channels good; noisiest: channel 2 at 0.62 (limit 0.50); 2 attempts")
        #expect(report.steps[1].keyMeasure == "typed “HELLO” of “HELLO”, 2 of 2 right")
        // Spelling: the timeout press is a selection (ITR) but not a selection time.
        let spelling = try #require(report.spelling.value)
        #expect(spelling.map(\.kind) == ["copySpell", "freeSpell"])
        #expect(spelling[0].selections == 3 && spelling[0].bitsPerSelection == log2(28))
        #expect(abs(spelling[0].bitsPerMinute! - log2(28) * 60 / (4.0 / 3)) < 1e-9)
        #expect(spelling[1].bitsPerMinute == nil && spelling[1].selections == 1)
        let histogram = try #require(report.selectionTimes.value)
        #expect(histogram.seconds == [1.5, 2.5, 0.75])
        // Signal quality: the two whole SIGNALQUALITY rows, none of the others.
        let quality = try #require(report.signalQuality.value)
        #expect(quality.trace.samples.map(\.time) == [1000.5, 1001.0])
        #expect(quality.trace.samples.map(\.quality) == [[0.25, 0.5], [0.75, 1.0]])
        #expect(quality.origin == 1000 && quality.end == 1135 && quality.limits == [1: 0.5, 2: 0.5])
        #expect(quality.trace.medians(from: 1000, to: 1002).map { $0 ?? -1 } == [0.5, 0.75])
        // Questions beside answers.
        let answers = try #require(report.answers.value)
        #expect(answers.map(\.question) == ["How tired are you?", "Again?"])
        #expect(answers[0].scale == "1 = not at all … 5 = very" && answers[1].scale == "1 yes · 2 no" && answers[1].answer == "no")
        #expect(report.calibrations.absence == "No calibration step in this session: no decoding curve or response kernels.")
        // The page: every part drawn, text escaped, nothing fetched.
        let html = SessionReportPage(report: report, timeZone: TimeZone(identifier: "UTC")!).html
        #expect(html.contains("<title>Session report: P07, Report &lt;test&gt;</title>"))
        #expect(html.contains("Checks &amp; figures"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 2)   // histogram, signal quality
        #expect(html.contains("class=\"bars\"") && html.contains("class=\"series\""))
        #expect(html.contains("No calibration step in this session"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
        #expect(html.contains("<td>16:43:53</td>"))   // step 1's wall time, 1000 s after… the manifest's start
        #expect(html.contains("<dt>Decoder settings</dt><dd>the defaults</dd>"))
    }

    @Test func theDecoderSettingsTheSessionRanOnAreNamedByWhatDiffersFromTheDefaults() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var settings = DecoderServerSettings()
        settings.idlePressesPerMinute = 1
        settings.reference = .commonAverage
        let manifest = SessionManifest(participant: "P07", protocolFile: "report.json",
                                       protocol: try JSONDecoder().decode(JSONValue.self, from: Data(Self.protocolJSON.utf8)),
                                       startedWallTime: 1_795_625_033, seed: 3, simulated: true, snr: 0.05, decoderSettings: settings)
        let folder = try SessionFolder.create(in: root, manifest: manifest)
        let html = SessionReportPage(report: try SessionReport(folder: folder)).html
        #expect(html.contains("<dt>Decoder settings</dt><dd>idlePressesPerMinute 1, reference average (the rest as default)</dd>"))
        let defaults = try SessionFolder.create(in: root, manifest: SessionManifest(
            participant: "P08", protocolFile: "report.json", protocol: manifest.protocol, startedWallTime: 1, seed: 3,
            simulated: true, snr: 0.05, decoderSettings: DecoderServerSettings()))
        #expect(SessionReportPage(report: try SessionReport(folder: defaults)).html.contains("<dt>Decoder settings</dt><dd>the defaults</dd>"))
    }

    @Test func missingPartsAreSentencesNotEmptyCharts() throws {
        let (folder, root) = try Self.folder(protocolJSON: #"{"name": "short", "steps": [{"kind": "instructions", "text": "Hi"}, {"kind": "calibration", "trials": 5}, {"kind": "questionnaire", "items": [{"id": "a", "question": "Q?", "type": "likert", "scale": 5}]}]}"#)
        defer { try? FileManager.default.removeItem(at: root) }
        try folder.append(Self.result(1, "instructions", start: 10, end: 13, measures: ["seconds": .number(3), "skipped": .bool(true)]))
        try folder.append(Self.result(2, "calibration", start: 13, end: 30, measures: ["trials": .number(2)]))
        try folder.append(Self.result(3, "questionnaire", start: 30, end: 31))
        let report = try SessionReport(folder: SessionFolder.open(folder.url))
        #expect(report.steps.map(\.keyMeasure) == ["skipped by a key", "2 trials, accuracy not reported", "0 answers"])
        #expect(report.spelling.absence?.hasPrefix("No spelling step") == true)
        #expect(report.selectionTimes.absence == "No spelling step finished: no selection times.")
        let calibration = try #require(report.calibrations.value?.first)
        #expect(calibration.figures.absence?.contains("saved no calibration dataset") == true)
        #expect(report.signalQuality.absence == "The decoder sent no signal quality (SIGNALQUALITY) in this session's recordings (the session folder holds no recordings).")
        #expect(report.noControl.absence?.hasPrefix("No no-control step") == true)
        #expect(report.answers.absence == "The questionnaire was not answered.")
        let html = SessionReportPage(report: report).html
        #expect(!html.contains("<svg"))
        let sentences = [report.spelling.absence, report.noControl.absence, report.signalQuality.absence, calibration.figures.absence,
                         report.selectionTimes.absence, report.answers.absence]
        for sentence in sentences.compactMap({ $0 }) {
            #expect(html.contains(sentence), "\(sentence)")
        }
    }

    @Test func aResumedSessionSaysSoAndHowLongItWasStopped() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try folder.append(Self.result(1, "calibration", start: 1000, end: 1040))
        try folder.append(Self.result(2, "copySpell", start: 1100, end: 1110))   // a step tried twice is one step
        try folder.append(Self.result(2, "copySpell", start: 1200, end: 1231))
        // Stopped at 16:45:00, resumed at 16:47:18 in a new engine (a recording that starts with "App started").
        for name in ["2026-11-25 16.43.53 +0000 App started – training 2026-11-25 16.44.00 +0000",
                     "2026-11-25 16.44.00 +0000 training – App ended 2026-11-25 16.45.00 +0000",
                     "2026-11-25 16.47.18 +0000 App started – App ended 2026-11-25 16.48.00 +0000"] {
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let report = try SessionReport(folder: SessionFolder.open(folder.url))
        #expect(report.runs.count == 2 && SessionRun.secondsBetween(report.runs) == 138)
        let html = SessionReportPage(report: report).html
        #expect(html.contains("<dt>Duration</dt><dd>3:51, of which 2:18 between runs</dd>"))
        #expect(html.contains("<dt>Steps</dt><dd>2 finished of 6: the session stopped early</dd>"), "\(html.prefix(900))")
        #expect(html.contains("<dt>Runs</dt><dd>2: stopped and resumed once; each run went on from the first step not yet done</dd>"))
    }

    @Test func runsAreTimedByTheirRecordingsEventsAKilledRunToo() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        // A closed run, a run killed (no end in its name) and the run that resumed it; events to the millisecond.
        let runs = [("2026-11-25 16.43.53 +0000 App started – App ended 2026-11-25 16.45.00 +0000", 1_795_625_033.25, 1_795_625_100.5),
                    ("2026-11-25 16.45.07 +0000 App started", 1_795_625_107.75, 1_795_625_150.0),
                    ("2026-11-25 16.45.56 +0000 App started – App ended 2026-11-25 16.47.00 +0000", 1_795_625_156.5, 1_795_625_220.0)]
        for (name, first, last) in runs {
            let url = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let lines = [#"{"time":1.0,"type":"recordingStarted","wall_time":\#(first)}"#, #"{"time":2.0,"type":"trialsRunning","value":true,"wall_time":\#(last)}"#]
            try (lines.joined(separator: "\n") + "\n").write(to: url.appendingPathComponent("events.jsonl"), atomically: true, encoding: .utf8)
        }
        let found = try SessionReport(folder: SessionFolder.open(folder.url), fittingCalibrations: false).runs
        #expect(found.map(\.start.timeIntervalSince1970) == runs.map(\.1))
        #expect(found.map { $0.end?.timeIntervalSince1970 } == runs.map(\.2))
        // 7.25 s after the first run, 6.5 s after the killed one (its last event): both counted.
        #expect(SessionRun.secondsBetween(found) == 13.75)
    }

    @Test func aSessionStoppedEarlySaysSoAndAZeroTrainingSessionExplainsTheMissingCalibration() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try folder.append(Self.result(1, "zeroTrain", start: 0, end: 60, measures: ["classes": .number(28), "revisions": .number(2)]))
        let report = try SessionReport(folder: SessionFolder.open(folder.url))
        #expect(report.calibrations.absence == "No calibration step in this session (the decoder learned during zero training): no decoding curve or response kernels.")
        #expect(SessionReportPage(report: report).html.contains("1 finished of 6: the session stopped early"))
        #expect(report.steps[0].keyMeasure == "typed “”, 0 selections, 2 revised")
        // Reported while its run still holds the folder: the missing steps are to come, not lost.
        let lock = try folder.lock()
        let live = try SessionReport(folder: SessionFolder.open(folder.url))
        withExtendedLifetime(lock) {}
        #expect(live.isRunning)
        #expect(SessionReportPage(report: live).html.contains("1 finished of 6: the session is still running"))
        #expect(live.noControl.absence == "No no-control step has finished yet (the session is still running): false presses while looking away were not measured.")
    }

    @Test func aBrokenStepsLineIsOneLineNamingFileAndLineButACutLastLineIsIgnored() throws {
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try folder.append(Self.result(1, "break", start: 0, end: 1))
        let steps = folder.url.appendingPathComponent("steps.jsonl")
        let good = try String(contentsOf: steps, encoding: .utf8)
        try Data((good + "{\"step\": 2, \"ki").utf8).write(to: steps)
        #expect(try SessionReport(folder: folder).steps.count == 1)
        try Data((good + "{\"step\": 2, \"ki\n" + good).utf8).write(to: steps)
        do {
            _ = try SessionReport(folder: folder)
            Issue.record("a broken line in the middle was read")
        } catch {
            #expect(error.description.contains("steps.jsonl:2: not a step result"))
            #expect(!error.description.contains("\n"))
        }
    }

    // MARK: Calibration

    @Test(.tags(.heavy), .heavyComputation) func theCalibrationIsFittedAgainIntoACurveAndKernels() throws {
        var simulation = DatasetSimulation(classes: 4, trials: 6, seed: 5)
        simulation.trialDuration = 1.6
        let dataset = try simulation.record()
        let (folder, root) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let saved = folder.url.appendingPathComponent("decoder-calibrations/calibration-1-6trials", isDirectory: true)
        try FileManager.default.createDirectory(at: saved, withIntermediateDirectories: true)
        try dataset.write(to: saved)
        try folder.append(Self.result(1, "calibration", start: 0, end: 30, measures: [
            "trials": .number(6), "accuracy": .number(1), "calibrationDataset": .string("decoder-calibrations/calibration-1-6trials")]))
        #expect(folder.recordingNames().isEmpty)   // decoder-calibrations is no recording
        let report = try SessionReport(folder: folder)
        let row = try #require(report.calibrations.value?.first)
        #expect(row.reportedAccuracy == 1)
        let figures = try #require(row.figures.value)
        #expect(figures.trials == 6 && figures.classes == 4 && figures.chance == 0.25)
        #expect(figures.curve.map(\.seconds) == [0.5, 1, 1.5, 1.6])
        #expect(figures.curve.allSatisfy { (0...1).contains($0.accuracy) })
        #expect(figures.eventLabels.count == figures.kernels.count && !figures.kernels.isEmpty)
        #expect(figures.kernels.allSatisfy { $0.count == Int((figures.chosen.settings.encodingLength * figures.sampleRate).rounded()) })
        #expect(abs(figures.lagMilliseconds(1) - figures.lagMilliseconds(0) - 1000 / figures.sampleRate) < 1e-9)
        let html = SessionReportPage(report: report).html
        #expect(html.contains("id=\"curve-1-plot\"") && html.contains("id=\"kernels-1-plot\""))
        #expect(html.contains("calibration figures fitted again from the saved dataset"))
        // Not fitted again: a sentence instead, and the footer does not claim it.
        let quick = try SessionReport(folder: folder, fittingCalibrations: false)
        #expect(quick.calibrations.value?.first?.figures.absence?.contains("not fitted again") == true)
        #expect(!SessionReportPage(report: quick).html.contains("fitted again from the saved dataset"))
    }
}
