import DecoderService
import Decoding
import Foundation
import TestSupport
import Testing
import UtopiaProtocol
@testable import LabFormats

/// A small engine recording folder built from the real types: a
/// `decoder-input.csv` of DATAHEADER, DATAPACKETs, MODECHANGE, NEWTARGETs and
/// STIMULUSEVENTs written by ``DecoderInputFile``, with `trials.jsonl`,
/// `presses.csv`, `events.jsonl` and `settings.json` lines.
struct RecordingFolderBuilder {
    /// Engine milliseconds of the first packet's first sample: just before the
    /// 32-bit millisecond stamps wrap (2³² ms ≈ 4294967.296 s), so the export
    /// has to unwrap them.
    var baseMs: Int64 = 4_294_966_750
    /// ``baseMs`` in seconds.
    var base: Double { Double(baseMs) / 1000 }
    var rate = 100.0
    var channels = ["Oz", "Pz"]
    var seconds = 6.0
    /// Seconds (from base) with no packets: a gap in the EEG.
    var gap: ClosedRange<Double>?
    var nonFinite: Int?
    var records: [DecoderInputRecord] = []

    /// Sample `s` of channel `c`, µV.
    static func value(_ c: Int, _ s: Int) -> Float { Float(c + 1) * 20 * Float(sin(Double(s) * 0.37)) + Float(c) * 3.25 }

    /// Object 1 and 2's codes, one state per 60 Hz frame.
    static func code(_ object: Int, _ frame: Int) -> UInt8 { UInt8((frame * (object + 2) / 3 + object) % 2) }

    /// Engine milliseconds `seconds` after the base, whole.
    func ms(_ seconds: Double) -> Int64 { baseMs + Int64((seconds * 1000).rounded()) }
    func stamp(_ seconds: Double) -> Int32 { Int32(truncatingIfNeeded: ms(seconds)) }

    mutating func add(_ message: UtopiaMessage, at seconds: Double) {
        records.append(DecoderInputRecord(time: Double(ms(seconds)) / 1000, bytes: UtopiaCodec.encode(message)))
    }

    /// The frame showing at sample `s` (the latest STIMULUSEVENT at or before it), nil before the first.
    func frame(atSample s: Int) -> Int? {
        (0..<90).last { ms(1.2 + Double($0) / 60) <= ms(Double(s) / rate) }
    }

    /// The decoder input: EEG in packets of 10 samples, one trial of 1.5 s
    /// from t = 1.2 s (NEWTARGET at 1.0 s) cueing object 2.
    mutating func build() {
        add(.dataHeader(DataHeader(timestamp: stamp(0), channelCount: Int32(channels.count), sampleRate: Float(rate), labels: channels)), at: 0)
        add(.modeChange(ModeChange(timestamp: stamp(0), newMode: "Calibration.supervised")), at: 0)
        var events: [(Double, UtopiaMessage)] = [(1.0, .newTarget(NewTarget(timestamp: stamp(1.0))))]
        for frame in 0..<90 {
            let t = 1.2 + Double(frame) / 60
            let states = [Self.code(2, frame), Self.code(1, frame), Self.code(2, frame)]
            events.append((t, .stimulusEvent(StimulusEvent(timestamp: stamp(t), objIDs: [0, 1, 2], objStates: states))))
        }
        events.append((3.5, .modeChange(ModeChange(timestamp: stamp(3.5), newMode: "Prediction.static"))))
        let total = Int(seconds * rate)
        var pending = events[...]
        for end in stride(from: 9, to: total, by: 10) {
            let last = Double(end) / rate
            if let gap, gap.contains(last) { continue }
            while let next = pending.first, next.0 <= last { add(next.1, at: next.0); pending = pending.dropFirst() }
            let rows = ((end - 9)...end).map { s in channels.indices.map { c in s == nonFinite ? Float.nan : Self.value(c, s) } }
            add(.dataPacket(DataPacket(timestamp: stamp(last), samples: rows)), at: last + 0.002)
        }
    }

    /// Writes the recording folder `name` in `parent`.
    func write(in parent: URL, name: String = "2026-11-25 16.28.15 +0000 training", decoderInput: Bool = true) throws -> URL {
        let folder = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if decoderInput {
            let lines = [DecoderInputFile.header.joined(separator: ",")] + records.map { DecoderInputFile.cells(of: $0).joined(separator: ",") }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent(DecoderInputFile.name))
        }
        let t = { (s: Double) in String(format: "%.6f", base + s) }
        let trial = #"{"controls":["a","b"],"cue_time":\#(t(0.203)),"end_time":\#(t(2.9)),"end_wall_time":1795624101.3,"ending":"completed","flicker_time":\#(t(1.2)),"mode":"TrainGeneric","object_ids":[0,1,2],"pause_time":\#(t(0.705)),"start_time":\#(t(0.203)),"start_wall_time":1795624098.6,"target":"b","target_object_id":2,"trial":1}"#
        try Data((trial + "\n").utf8).write(to: folder.appendingPathComponent("trials.jsonl"))
        let presses = "time,wall_time,trial,control,object_id,source,certainty,target\n\(t(4.015)),1795624102.4,,a,1,touch,,\n"
        try Data(presses.utf8).write(to: folder.appendingPathComponent("presses.csv"))
        try Data(#"{"framesPerBit":1,"preferredNFramesPerSecond":60,"randomlyTranslateNoiseTagsInTraining":false}"#.utf8)
            .write(to: folder.appendingPathComponent("settings.json"))
        try Data(#"{"folder":"x","time":\#(t(0)),"type":"recordingStarted","wall_time":1795624098.4}"#.appending("\n").utf8)
            .write(to: folder.appendingPathComponent("events.jsonl"))
        return folder
    }
}

@Suite struct BIDSExporterTests {
    static func scratch() throws -> URL { try ScratchFolder.make() }

    static func table(_ url: URL) throws -> [[String: String]] {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    // MARK: BDF writer

    @Test func bdfRoundTripsThroughTheImporterWithinHalfAStep() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = 625   // 2.5 s at 250 Hz: the third record is padded
        let samples: [[Float]] = [(0..<n).map { Float(sin(Double($0) / 7)) * 85.3 - 12 }, (0..<n).map { Float($0 % 50) * 1000 - 31_000 },
                                  [Float](repeating: 4.5, count: n)]
        let url = dir.appendingPathComponent("x_eeg.bdf")
        let scales = try BDFWriter(sampleRate: 250, channelNames: ["Oz", "Pz", "flat"], start: Date(timeIntervalSince1970: 1_795_624_098))
            .write(samples, to: url)
        #expect(scales[0].physicalMinimum <= Double(samples[0].min()!) && scales[0].physicalMinimum > Double(samples[0].min()!) - 1e-4)   // "-97.2999": 8 characters
        #expect(scales[0].physicalMaximum >= Double(samples[0].max()!) && scales[0].physicalMaximum < Double(samples[0].max()!) + 1e-4)
        #expect(scales[2].physicalMinimum == 3.5 && scales[2].physicalMaximum == 5.5)   // a flat channel gets ±1 µV
        #expect(scales[1].step < 0.004 && scales[0].step < 2e-5)
        let back = try EDFImporter.read(url)
        #expect(back.sampleRate == 250 && back.channelNames == ["Oz", "Pz", "flat"] && back.sampleCount == 750)
        for c in 0..<3 {
            for s in 0..<n { #expect(abs(Double(back.samples[c][s]) - Double(samples[c][s])) <= scales[c].step / 2 + 1e-6 * abs(Double(samples[c][s]))) }
            #expect(abs(back.samples[c][749] - samples[c][n - 1]) <= Float(scales[c].step))   // padded with the last sample
        }
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(bytes[0] == 0xFF && String(decoding: bytes[1..<8], as: UTF8.self) == "BIOSEMI")
        #expect(String(decoding: bytes[168..<176], as: UTF8.self) == "25.11.26")
    }

    @Test func edfPlusRoundTripsAndNonFiniteSamplesReadAsTheMinimum() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var oz = (0..<512).map { Float($0 % 64) - 20 }
        oz[100] = .nan
        oz[101] = .infinity
        let url = dir.appendingPathComponent("x_eeg.edf")
        let scales = try BDFWriter(format: .edf, sampleRate: 256, channelNames: ["Oz"], start: Date()).write([oz], to: url)
        #expect(scales[0].nonFinite == 2 && scales[0].physicalMinimum == -20 && scales[0].physicalMaximum == 43)
        let back = try EDFImporter.read(url)
        #expect(back.source.contains("EDF+C") && back.sampleCount == 512 && back.markers.isEmpty)
        #expect(back.samples[0][100] == -20 && back.samples[0][101] == -20)
        #expect(abs(back.samples[0][99] - oz[99]) <= Float(scales[0].step))
    }

    @Test func aRateThatIsNotAWholeNumberGetsLongerRecords() throws {
        #expect(try BDFWriter(sampleRate: 512.5, channelNames: ["a"], start: Date()).recordLayout() == (2, 1025))
        #expect(ScratchFolder.message { _ = try BDFWriter(sampleRate: 250.249, channelNames: ["a"], start: Date()).recordLayout() }
            == "sample rate: 250.249 Hz gives no whole number of samples in a data record of up to 60 s")
    }

    @Test func gzipIsOneStandardMember() throws {
        let text = Data((0..<5000).map { "\($0 % 7)\t1\n" }.joined().utf8)
        let packed = try Gzip.compress(text)
        #expect(Array(packed.prefix(3)) == [0x1F, 0x8B, 8] && packed.count < text.count / 10)
        #expect(try Gzip.decompress(packed, name: "x.gz") == text)
        #expect(try Gzip.decompress(try Gzip.compress(Data()), name: "e.gz").isEmpty)
        var cut = packed
        cut.removeLast(20)
        #expect(ScratchFolder.message { _ = try Gzip.decompress(cut, name: "cut.gz") }.hasPrefix("cut.gz: "))
    }

    // MARK: Export

    @Test func aRecordingExportsEventsChannelsAndItsStimulus() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let builder = RecordingFolderBuilder.built()
        let folder = try builder.write(in: dir)
        let recording = try EngineRecording.read(folder)
        let report = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids"), options: .init(subject: "01"))
        #expect(report.samples == 600 && report.sampleRate == 100 && report.channels == ["Oz", "Pz"] && report.warnings.isEmpty)
        let eeg = dir.appendingPathComponent("bids/sub-01/eeg")
        // A folder that lost a file it should hold still exports, with a warning that says what is gone.
        let damaged = try builder.write(in: dir, name: "2026-11-25 10.00.00 +0000 damaged")
        try FileManager.default.removeItem(at: damaged.appendingPathComponent("settings.json"))
        #expect(try EngineRecording.read(damaged).warnings == ["2026-11-25 10.00.00 +0000 damaged: missing: settings.json"])

        // The first sample is at base (packet stamps are whole ms), so t s from base is sample ceil(100 t).
        let events = try Self.table(eeg.appendingPathComponent("sub-01_task-cvep_events.tsv"))
        #expect(events.map { $0["trial_type"]! } == ["mode/Calibration.supervised", "cue", "trial", "target=2", "mode/Prediction.static", "press/touch"])
        let trial = events[2]
        #expect(trial["onset"] == "1.200000" && trial["sample"] == "120" && trial["trial"] == "1" && trial["target"] == "2")
        #expect(trial["duration"] == "1.500000")   // 89 frames after the first, plus one: 1.2 + 89/60 + 1/60 = 2.7 s
        #expect(trial["value"] == "1" && events[3]["value"] == "1002" && events[3]["onset"] == "1.200000")
        // Modes keep their codes from export to export, whichever comes first: Calibration.supervised 202, Prediction.static 203.
        #expect(events[0]["value"] == "202" && events[4]["value"] == "203")
        #expect(events[1]["sample"] == "21" && events[1]["duration"] == "0.500000")
        #expect(events[5]["sample"] == "402" && events[5]["pressed"] == "1" && events[5]["control"] == "a")

        let channels = try Self.table(eeg.appendingPathComponent("sub-01_task-cvep_channels.tsv"))
        #expect(channels.map { $0["name"]! } == ["Oz", "Pz"] && channels.allSatisfy { $0["type"] == "EEG" && $0["units"] == "µV" && $0["sampling_frequency"] == "100" })

        let stimulus = try BIDSStimulus.read(eeg.appendingPathComponent("sub-01_task-cvep_stim.tsv.gz"))
        #expect(stimulus.columns == ["obj_0", "obj_1", "obj_2"] && stimulus.sampleRate == 100 && stimulus.rowCount == 600)
        for s in [0, 119, 120, 121, 150, 269, 270, 599] {
            let expected: [UInt8] = builder.frame(atSample: s).map { [RecordingFolderBuilder.code(2, $0), RecordingFolderBuilder.code(1, $0), RecordingFolderBuilder.code(2, $0)] } ?? [0, 0, 0]
            #expect(stimulus.states.map { $0[s] } == expected, "sample \(s)")
        }
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: eeg.appendingPathComponent("sub-01_task-cvep_eeg.json"))) as! [String: Any]
        #expect(sidecar["SamplingFrequency"] as? Double == 100 && sidecar["RecordingDuration"] as? Double == 6 && sidecar["EEGChannelCount"] as? Int == 2)
        #expect(sidecar["TaskName"] as? String == "cvep" && sidecar["EEGReference"] as? String == "n/a")
        let description = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("bids/dataset_description.json"))) as! [String: Any]
        #expect(description["BIDSVersion"] as? String == "1.9.0" && description["DatasetType"] as? String == "raw")
        #expect(try String(contentsOf: dir.appendingPathComponent("bids/participants.tsv"), encoding: .utf8) == "participant_id\nsub-01\n")

        // The BDF holds the packets' samples.
        let back = try EDFImporter.read(report.dataFile)
        for s in [0, 1, 299, 599] { #expect(abs(back.samples[1][s] - RecordingFolderBuilder.value(1, s)) <= Float(report.scales[1].step)) }
    }

    @Test func aParticipantsFileWithCRLFEndingsGainsItsRowAndStaysATable() throws {
        // A spreadsheet on Windows saves CRLF: the subject already there is found, a new one gets its row.
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let participants = dir.appendingPathComponent("participants.tsv")
        try Data("participant_id\tage\r\nsub-P03\t30\r\n".utf8).write(to: participants)
        _ = try BIDSExporter.datasetFiles(dir, subject: "P03")
        #expect(try String(contentsOf: participants, encoding: .utf8) == "participant_id\tage\r\nsub-P03\t30\r\n")
        _ = try BIDSExporter.datasetFiles(dir, subject: "C")
        #expect(try String(contentsOf: participants, encoding: .utf8) == "participant_id\tage\nsub-P03\t30\nsub-C\tn/a\n")
    }

    @Test func theImportReadsTheTrialsBackWithoutCodes() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let builder = RecordingFolderBuilder.built()
        let recording = try EngineRecording.read(try builder.write(in: dir))
        _ = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids"), options: .init(subject: "01", session: "2"))
        let subject = dir.appendingPathComponent("bids/sub-01")
        #expect(LabFormat.detectOrNil(subject) == .bids)
        let imported = try BIDSImporter.read(subject)
        let stimulus = try #require(try BIDSImporter.stimulus(subject))
        let options = TrialCutOptions(trialStart: #"^target=\d+$"#, label: #"^target=(\d+)$"#, codes: [])
        let dataset = try StimulusTrialCutter.cut(imported, stimulus: stimulus, options: options).dataset
        #expect(dataset.header.nTrials == 1 && dataset.header.nSamples == 150 && dataset.header.nClasses == 2)
        #expect(dataset.labels == [1])   // object 2 is the second class
        let expected = [1, 2].flatMap { object in (120..<270).map { s in RecordingFolderBuilder.code(object, builder.frame(atSample: s)!) } }
        #expect(dataset.stimulus == expected)

        #expect(ScratchFolder.message { _ = try StimulusTrialCutter.cut(imported, stimulus: stimulus, options: TrialCutOptions(trialStart: "^trial$", label: #"^mode/(\d+)"#, codes: [])) }
            .hasPrefix("--label: no marker at or before the trial start at 1.200 s matches"))
    }

    @Test func aGapIsFilledAndMarked() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var builder = RecordingFolderBuilder()
        builder.gap = 4.0...4.8
        builder.nonFinite = 30
        builder.build()
        let recording = try EngineRecording.read(try builder.write(in: dir))
        let report = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids"), options: .init(subject: "gap"))
        #expect(report.samples == 600 && report.events["BAD_gap"] == 1 && report.events["BAD_nonfinite"] == 1)
        #expect(report.warnings.contains { $0.hasPrefix("the EEG stops for 0.800 s at engine time") && $0.hasSuffix("(80 samples missing): filled by linear interpolation and marked BAD_gap") })
        #expect(report.warnings.contains("NaN or infinite samples written as the channel's minimum and marked BAD_nonfinite: Oz 1, Pz 1"))
        let events = try Self.table(dir.appendingPathComponent("bids/sub-gap/eeg/sub-gap_task-cvep_events.tsv"))
        let gap = try #require(events.first { $0["trial_type"] == "BAD_gap" })
        #expect(gap["sample"] == "400" && gap["duration"] == "0.800000")   // packets ending 4.09 … 4.79 s are missing
        let back = try EDFImporter.read(report.dataFile)
        let before = Double(RecordingFolderBuilder.value(0, 399)), after = Double(RecordingFolderBuilder.value(0, 480))
        #expect(abs(Double(back.samples[0][445]) - (before + (after - before) * 46 / 81)) < 1e-3)
    }

    @Test func aSessionIsOneRunWithItsSteps() throws {
        let builder = RecordingFolderBuilder.built()
        let (dir, session, later) = try builder.scratchSession(first: "2026-11-25 16.28.14 +0000 App started – training 2026-11-25 16.28.15 +0000",
                                                               second: "2026-11-25 16.28.15 +0000 training – App ended 2026-11-25 16.29.40 +0000")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The session resumed in a new engine, whose trials are numbered from 1 again: a Verify trial cueing object 1, pressed.
        let t = { (s: Double) in String(format: "%.6f", builder.base + s) }
        try Data((#"{"controls":["a","b"],"cue_time":\#(t(3.6)),"end_time":\#(t(5.2)),"end_wall_time":1795624103.6,"ending":"pressed-brain","flicker_time":\#(t(4.0)),"mode":"Verify","object_ids":[0,1,2],"pause_time":\#(t(3.8)),"pressed":"a","pressed_object_id":1,"start_time":\#(t(3.6)),"start_wall_time":1795624102.0,"target":"a","target_object_id":1,"trial":1}"# + "\n").utf8)
            .write(to: later.appendingPathComponent("trials.jsonl"))
        try Data("time,wall_time,trial,control,object_id,source,certainty,target\n\(t(5.2)),1795624103.6,1,a,1,brain,0.99,a\n".utf8)
            .write(to: later.appendingPathComponent("presses.csv"))
        try Data(#"{"format":"noisetag-session/1","participant":"P01","protocol":{},"seed":1,"simulated":true,"started_wall_time":1795425241.7,"future":3}"#.utf8)
            .write(to: session.appendingPathComponent("session.json"))
        let step = { (n: Int, kind: String, from: Double, to: Double) in
            #"{"step":\#(n),"kind":"\#(kind)","name":"\#(kind) \#(n)","start_time":\#(builder.base + from),"end_time":\#(builder.base + to),"start_wall_time":\#(1795425241.7 + from),"end_wall_time":\#(1795425241.7 + to),"outcome":"done","measures":{"accuracy":1},"answers":[],"recordings":[]}"#
        }
        try Data([step(1, "calibration", 0.505, 3.005), step(2, "break", 3.005, 5.505), "{\"broken\":"].joined(separator: "\n").appending("\n").utf8)
            .write(to: session.appendingPathComponent("steps.jsonl"))

        let recording = try EngineRecording.read(session)
        #expect(recording.isSession && recording.folders.count == 2 && recording.participant == "P01" && recording.steps.count == 2)
        #expect(recording.warnings == ["2026-11-25 16.28.00 P01/steps.jsonl: 1 line(s) not a step, left out (line 3)"])
        let report = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids"), options: .init(subject: "P01", session: "1"))
        #expect(report.samples == 600 && !report.warnings.contains { $0.contains("BAD_gap") })
        let events = try Self.table(dir.appendingPathComponent("bids/sub-P01/ses-1/eeg/sub-P01_ses-1_task-cvep_events.tsv"))
        let steps = events.filter { $0["trial_type"]!.hasPrefix("step_") }
        #expect(steps.map { $0["trial_type"]! } == ["step_start/calibration", "step_end/calibration", "step_start/break", "step_end/break"])
        #expect(steps.map { $0["sample"]! } == ["51", "301", "301", "551"] && steps[0]["step_name"] == "calibration 1" && steps[0]["outcome"] == "done")
        // The same codes in every export: calibration is the third kind a protocol may name, break the eighth.
        #expect(steps.map { $0["value"]! } == ["303", "403", "308", "408"])
        #expect(events.contains { $0["trial_type"] == "target=2" })
        // Trial 1 twice, one per engine, told apart by the recording; the resumed engine's press has its own trial's target.
        let trials = events.filter { $0["trial_type"] == "trial" }
        #expect(trials.map { [$0["trial"]!, $0["recording"]!, $0["target"]!] } == [["1", "1", "2"], ["1", "2", "1"]])
        let brain = try #require(events.first { $0["trial_type"] == "press/brain" })
        #expect(brain["trial"] == "1" && brain["recording"] == "2" && brain["target"] == "1", "\(brain)")
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("bids/sub-P01/ses-1/eeg/sub-P01_ses-1_task-cvep_events.json"))) as? [String: Any]
        let levels = (sidecar?["recording"] as? [String: Any])?["Levels"] as? [String: String]
        #expect(levels?["2"] == "2026-11-25 16.28.15 +0000 training – App ended 2026-11-25 16.29.40 +0000")
    }

    // MARK: Bad input

    @Test func badInputIsOneLineNamingTheThing() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("nothing")
        #expect(ScratchFolder.message { _ = try EngineRecording.read(missing) } == "\(missing.path): no such file or folder")
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(ScratchFolder.message { _ = try EngineRecording.read(empty) }
            == "empty: not a recording (no events.jsonl, settings.json or decoder-input.csv) nor a session folder (no session.json)")
        let builder = RecordingFolderBuilder.built()
        let external = try builder.write(in: dir, name: "2026-11-25 10.00.00 +0000 App started", decoderInput: false)
        #expect(ScratchFolder.message { _ = try EngineRecording.read(external) }
            == "2026-11-25 10.00.00 +0000 App started: no decoder-input.csv: the EEG was not recorded (an external decoder ran; only the embedded decoder of noisetag demo records the EEG it consumed)")
        try "time,id,hex\n".write(to: external.appendingPathComponent("decoder-input.csv"), atomically: true, encoding: .utf8)
        #expect(ScratchFolder.message { _ = try EngineRecording.read(external) }
            == "2026-11-25 10.00.00 +0000 App started: decoder-input.csv holds no record: the embedded decoder heard nothing before the recording ended (or the file was emptied)")

        let folder = try builder.write(in: dir)
        let recording = try EngineRecording.read(folder)
        #expect(ScratchFolder.message { _ = try BIDSExporter.export(recording, to: dir.appendingPathComponent("b"), options: .init(subject: "P-01")) }
            == "--subject: \"P-01\" is not a BIDS label (letters and digits only)")
        let file = dir.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        #expect(ScratchFolder.message { _ = try BIDSExporter.export(recording, to: file, options: .init(subject: "01")) } == "\(file.path): cannot create \(file.path)/sub-01/eeg: \(file.path) is a file, not a folder")
        _ = try BIDSExporter.export(recording, to: dir.appendingPathComponent("b"), options: .init(subject: "01"))
        let again = dir.appendingPathComponent("b/sub-01/eeg/sub-01_task-cvep_eeg.bdf")
        #expect(ScratchFolder.message { _ = try BIDSExporter.export(recording, to: dir.appendingPathComponent("b"), options: .init(subject: "01")) }
            == "\(again.path): already exists: remove it, or export with another --session, --task or --run")
        // The other format for the same recording would make two data files of one run.
        #expect(ScratchFolder.message { _ = try BIDSExporter.export(recording, to: dir.appendingPathComponent("b"), options: .init(subject: "01", format: .edf)) }
            == "\(again.path): already exists: remove it, or export with another --session, --task or --run")

        let changed = DecoderInputRecord(time: builder.records.last!.time, bytes: UtopiaCodec.encode(.dataHeader(DataHeader(timestamp: 5, channelCount: 4, sampleRate: 500, labels: []))))
        #expect(ScratchFolder.message { _ = try RecordingEEG(records: builder.records + [changed], source: "in.csv") }
            .hasPrefix("in.csv: the EEG changes from 2 channels at 100 Hz (Oz, Pz) to 4 channels at 500 Hz at engine time "))
        #expect(ScratchFolder.message { _ = try RecordingEEG(records: Array(builder.records.prefix(2)), source: "in.csv") }
            == "in.csv: holds no DATAPACKET: no EEG was recorded")
    }
}

/// The error's one line, or "no error".
func EDFTestFileMessage(_ body: () throws -> Void) -> String { ScratchFolder.message(body) }

extension LabFormat {
    /// The detected format, nil on an error.
    static func detectOrNil(_ url: URL) -> LabFormat? { try? detect(url) }
}
