import Foundation
import TestSupport
import Testing
@testable import LabFormats

/// A session whose calibration was stopped (Ctrl-C) and run again on
/// resume: the first attempt's trial stays in the export, but is no
/// calibration trial of the finished step.
@Suite struct BIDSInterruptedStepTests {
    @Test func anInterruptedAttemptsTrialsKeepTheirTrialRowOnlyAndSayInterrupted() throws {
        let builder = RecordingFolderBuilder.built()
        // The stopped attempt's recording holds the trial cueing object 2 (flicker from 1.2 s); the resumed
        // engine's calibration, finished, cues object 1 and flickers from 4.0 s.
        let (dir, session, again) = try builder.scratchSession(first: "2026-11-25 16.28.14 +0000 App started – App ended 2026-11-25 16.28.15 +0000",
                                                               second: "2026-11-25 16.28.16 +0000 App started – App ended 2026-11-25 16.29.40 +0000")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = { (s: Double) in String(format: "%.6f", builder.base + s) }
        try Data((#"{"controls":["a","b"],"cue_time":\#(t(3.6)),"end_time":\#(t(5.2)),"end_wall_time":1795624103.6,"ending":"completed","flicker_time":\#(t(4.0)),"mode":"TrainGeneric","object_ids":[0,1,2],"pause_time":\#(t(3.8)),"start_time":\#(t(3.6)),"start_wall_time":1795624102.0,"target":"a","target_object_id":1,"trial":1}"# + "\n").utf8)
            .write(to: again.appendingPathComponent("trials.jsonl"))
        try Data(#"{"format":"noisetag-session/1","participant":"P01","protocol":{},"seed":1,"simulated":true,"started_wall_time":1795425241.7}"#.utf8)
            .write(to: session.appendingPathComponent("session.json"))
        let step = #"{"step":1,"kind":"calibration","name":"calibration","start_time":\#(builder.base + 3.5),"end_time":\#(builder.base + 5.5),"start_wall_time":1795425245.2,"end_wall_time":1795425247.2,"outcome":"done","measures":{},"answers":[],"recordings":["2026-11-25 16.28.16 +0000 App started"]}"#
        try Data((step + "\n").utf8).write(to: session.appendingPathComponent("steps.jsonl"))

        let recording = try EngineRecording.read(session)
        let report = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids"), options: .init(subject: "P01"))
        #expect(!report.warnings.contains { $0.hasPrefix("the session's participant") })
        let events = try BIDSExporterTests.table(dir.appendingPathComponent("bids/sub-P01/eeg/sub-P01_task-cvep_events.tsv"))
        let trials = events.filter { $0["trial_type"] == "trial" }
        #expect(trials.map { [$0["recording"]!, $0["target"]!, $0["step"]!, $0["step_name"]!, $0["outcome"]!] }
                == [["1", "2", "n/a", "n/a", "interrupted"], ["2", "1", "1", "calibration", "done"]])
        // Only the finished calibration's trial is a target row: the import recipe of recordings-bids.md cuts that one.
        #expect(events.filter { $0["trial_type"]!.hasPrefix("target=") }.map { $0["trial_type"]! } == ["target=1"])
        #expect(events.filter { $0["trial_type"] == "cue" }.map { $0["outcome"]! } == ["interrupted", "done"])
        // Exported under another subject: said, since the files then name someone else.
        let other = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids"), options: .init(subject: "P03"))
        #expect(other.warnings.contains("the session's participant is P01, exported as sub-P03 (SessionParticipant in the _eeg.json keeps P01)"))
    }

    @Test func aTrialCutByAKillKeepsItsRecordingAndSaysInterrupted() throws {
        let builder = RecordingFolderBuilder.built()
        // Killed during its trial (no end in its name, no trials.jsonl line), then resumed in a new engine.
        let (dir, session, again) = try builder.scratchSession(first: "2026-11-25 16.28.14 +0000 App started",
                                                               second: "2026-11-25 16.28.16 +0000 App started – App ended 2026-11-25 16.29.40 +0000")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: session.appendingPathComponent("2026-11-25 16.28.14 +0000 App started/trials.jsonl"))
        try Data().write(to: again.appendingPathComponent("trials.jsonl"))
        try Data(#"{"format":"noisetag-session/1","participant":"P01","protocol":{},"seed":1,"simulated":true,"started_wall_time":1795425241.7}"#.utf8)
            .write(to: session.appendingPathComponent("session.json"))
        try Data().write(to: session.appendingPathComponent("steps.jsonl"))
        let report = try BIDSExporter.export(try EngineRecording.read(session), to: dir.appendingPathComponent("bids"), options: .init(subject: "P01"))
        let events = try BIDSExporterTests.table(dir.appendingPathComponent("bids/sub-P01/eeg/sub-P01_task-cvep_events.tsv"))
        let cut = try #require(events.first { $0["trial_type"] == "trial" && $0["sample"] == "120" }, "\(report.warnings)")
        #expect([cut["recording"], cut["trial"], cut["outcome"]] == ["1", "n/a", "interrupted"])
    }
}

/// BIDS gives a subject's data in sessions throughout or not at all.
@Suite struct BIDSSubjectFolderTests {
    @Test func aSubjectIsExportedWithSessionsThroughoutOrWithout() throws {
        let dir = try BIDSExporterTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let builder = RecordingFolderBuilder.built()
        let recording = try EngineRecording.read(try builder.write(in: dir))
        let bids = dir.appendingPathComponent("bids")
        _ = try BIDSExporter.export(recording, to: bids, options: .init(subject: "01", session: "1"))
        #expect(ScratchFolder.message { _ = try BIDSExporter.export(recording, to: bids, options: .init(subject: "01")) }
                == "\(bids.path)/sub-01: holds sessions (ses-1): export with --session too")
        _ = try BIDSExporter.export(recording, to: bids, options: .init(subject: "02"))
        #expect(ScratchFolder.message { _ = try BIDSExporter.export(recording, to: bids, options: .init(subject: "02", session: "1")) }
                == "\(bids.path)/sub-02: holds data without a session (eeg/): export without --session, or into another folder")
        _ = try BIDSExporter.export(recording, to: bids, options: .init(subject: "01", session: "2"))
    }
}
