import Decoding
import Foundation
import JSONSupport
import NoiseTagging

/// Writes what the engine recorded (an ``EngineRecording``: one recording
/// folder or a whole session) as BIDS-EEG 1.9 that MNE-BIDS, EEGLAB and
/// MOABB read (Protocols/recordings-bids.md):
///
/// ```
/// DIR/dataset_description.json  participants.tsv  README
/// DIR/sub-S[/ses-N]/eeg/sub-S[_ses-N]_task-T[_run-R]_eeg.bdf      (or _eeg.edf)
///                                                    _eeg.json  _channels.tsv
///                                                    _events.tsv  _events.json
///                                                    _stim.tsv.gz  _stim.json
/// ```
///
/// The EEG is the decoder's (``RecordingEEG``), scaled per channel by
/// ``BDFWriter``; events come from the decoder's trials, `trials.jsonl`,
/// `presses.csv`, the MODECHANGEs and a session's steps (``BIDSEvent``); the
/// stimulus file holds every object's state at every sample
/// (``BIDSStimulus``), so each class's stimulus can be rebuilt and
/// `noisetag dataset import` needs no `--codes`.
///
/// ```swift
/// let recording = try EngineRecording.read(URL(fileURLWithPath: "recordings/2026-11-25 16.28.15 +0000 training"))
/// let report = try BIDSExporter.export(recording, to: URL(fileURLWithPath: "bids"), options: .init(subject: "01"))
/// print(report.dataFile.path, report.seconds)
/// ```
public enum BIDSExporter {
    /// Where and how to write.
    public struct Options: Sendable {
        /// The `sub-` label (letters and digits).
        public var subject: String
        /// The `ses-` label, nil for none.
        public var session: String?
        /// The `task-` label.
        public var task: String
        /// The `run-` index, nil for none.
        public var run: Int?
        /// BDF (24-bit) or EDF+ (16-bit).
        public var format: BDFWriter.Format

        /// Options from their parts.
        public init(subject: String, session: String? = nil, task: String = "cvep", run: Int? = nil, format: BDFWriter.Format = .bdf) {
            self.subject = subject
            self.session = session
            self.task = task
            self.run = run
            self.format = format
        }
    }

    /// What was written.
    public struct Report: Sendable {
        /// The data file (`…_eeg.bdf`).
        public var dataFile: URL
        /// Every file written or updated.
        public var files: [URL]
        /// Samples per second.
        public var sampleRate: Double
        /// The channels.
        public var channels: [String]
        /// Samples per channel (without the last record's padding).
        public var samples: Int
        /// Each channel's scale (quantisation step, NaN count).
        public var scales: [BDFWriter.ChannelScale]
        /// Events written, by trial_type.
        public var events: [String: Int]
        /// What was noticed and survived.
        public var warnings: [String]

        /// Seconds of EEG.
        public var seconds: Double { Double(samples) / sampleRate }
    }

    /// True for a BIDS label: one or more ASCII letters or digits.
    public static func isLabel(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0)) }
    }

    /// Exports `recording` into the BIDS dataset at `root` (created when absent).
    public static func export(_ recording: EngineRecording, to root: URL, options: Options) throws -> Report {
        for (option, label) in [("--subject", options.subject), ("--session", options.session), ("--task", options.task)] {
            if let label, !isLabel(label) { throw LabFormatError(option, "\"\(label)\" is not a BIDS label (letters and digits only)") }
        }
        if let run = options.run, run < 1 { throw LabFormatError("--run", "must be a positive index, got \(run)") }
        let eeg = try RecordingEEG(records: recording.records, source: recording.isSession ? recording.name : "\(recording.name)/decoder-input.csv")
        var warnings = recording.warnings + eeg.warnings

        if let participant = recording.participant, participant.filter({ $0.isLetter || $0.isNumber }) != options.subject {
            warnings.append("the session's participant is \(participant), exported as sub-\(options.subject) (SessionParticipant in the _eeg.json keeps \(participant))")
        }

        // Names and folders.
        var stem = "sub-\(options.subject)"
        var folder = root.appendingPathComponent(stem, isDirectory: true)
        // BIDS gives a subject's data sessions throughout or not at all.
        let subjectFolder = folder
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: subjectFolder.path) {
            let sessions = entries.filter { $0.hasPrefix("ses-") }
            if options.session == nil, !sessions.isEmpty {
                throw LabFormatError(subjectFolder.path, "holds sessions (\(sessions.sorted().joined(separator: ", "))): export with --session too")
            }
            if options.session != nil, entries.contains("eeg") {
                throw LabFormatError(subjectFolder.path, "holds data without a session (eeg/): export without --session, or into another folder")
            }
        }
        if let session = options.session {
            stem += "_ses-\(session)"
            folder.appendPathComponent("ses-\(session)", isDirectory: true)
        }
        folder.appendPathComponent("eeg", isDirectory: true)
        stem += "_task-\(options.task)" + (options.run.map { "_run-\($0)" } ?? "")
        let dataFile = folder.appendingPathComponent("\(stem)_eeg.\(options.format.rawValue)")
        // One recording, one data file: an export in the other format would leave two, and its sidecar would describe only one.
        for existing in ["bdf", "edf"].map({ folder.appendingPathComponent("\(stem)_eeg.\($0)") })
        where FileManager.default.fileExists(atPath: existing.path) {
            throw LabFormatError(existing.path, "already exists: remove it, or export with another --session, --task or --run")
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw LabFormatError(root.path, "cannot create \(folder.path): \(FileProblem.whyNotWritten(folder, error, folder: true))")
        }
        guard FileManager.default.isWritableFile(atPath: folder.path) else { throw LabFormatError(folder.path, "not writable") }

        // EEG.
        let fs = eeg.sampleRate
        let channels = uniqueNames(eeg.channelNames)
        let startSeconds = recording.clockOffset.map { $0 + eeg.times[0] / 1000 }
        var writer = BDFWriter(format: options.format, sampleRate: fs, channelNames: channels,
                               start: startSeconds.map { Date(timeIntervalSince1970: $0) } ?? Date(timeIntervalSince1970: 473_385_600))
        writer.patient = "\(options.subject) X X X"
        let scales = try writer.write(eeg.samples, to: dataFile)
        var files = [dataFile]
        let broken = scales.filter { $0.nonFinite > 0 }
        if !broken.isEmpty {
            warnings.append("NaN or infinite samples written as the channel's minimum and marked BAD_nonfinite: " + broken.map { "\($0.name) \($0.nonFinite)" }.joined(separator: ", "))
        }

        // Events.
        let events = self.events(recording, eeg, warnings: &warnings)
        let codes = BIDSEvent.codes(for: events.map(\.trialType))
        let columns = BIDSEvent.columns(steps: recording.isSession)
        var table = [columns.joined(separator: "\t")]
        for event in events { table.append(event.cells(sampleRate: fs, value: codes[event.trialType] ?? 0, columns: columns).joined(separator: "\t")) }
        files.append(try write(table.joined(separator: "\n") + "\n", folder.appendingPathComponent("\(stem)_events.tsv")))
        files.append(try writeJSON(eventsSidecar(codes: codes, columns: columns, folders: recording.folders.map(\.lastPathComponent)),
                                   folder.appendingPathComponent("\(stem)_events.json")))

        // Channels and the EEG sidecar.
        var channelRows = ["name\ttype\tunits\tsampling_frequency\tstatus\tstatus_description"]
        for (name, scale) in zip(channels, scales) {
            channelRows.append("\(name)\tEEG\tµV\t\(number(fs))\t" + (scale.nonFinite > 0 ? "bad\t\(scale.nonFinite) NaN or infinite samples" : "good\tn/a"))
        }
        files.append(try write(channelRows.joined(separator: "\n") + "\n", folder.appendingPathComponent("\(stem)_channels.tsv")))
        let objects = eeg.objectIDs
        let stimURL = folder.appendingPathComponent("\(stem)_stim.tsv.gz")
        files.append(try writeJSON(eegSidecar(recording, eeg, options: options, scales: scales, objects: objects,
                                              stimulusFile: stimURL.lastPathComponent),
                                   folder.appendingPathComponent("\(stem)_eeg.json")))

        // Stimulus.
        let stimulus = BIDSStimulus(sampleRate: fs, columns: objects.map { "obj_\($0)" }, states: eeg.states(of: objects))
        var descriptions: [String: String] = [:]
        for id in objects {
            descriptions["obj_\(id)"] = id == 0 ? "Object 0: the cued target's own state in training and Verify trials (a mirror of the target's column)."
                : "The state object \(id) showed (0 off, 1 on): its latest STIMULUSEVENT at or before the sample, 0 before its first."
        }
        do { try stimulus.write(to: stimURL, descriptions: descriptions) } catch let error as LabFormatError { throw error } catch {
            throw LabFormatError(stimURL.path, "cannot compress: \(error)")
        }
        files += [stimURL, BIDSStimulus.sidecar(of: stimURL)]

        // Dataset files.
        files += try datasetFiles(root, subject: options.subject)
        var counts: [String: Int] = [:]
        for event in events { counts[event.trialType, default: 0] += 1 }
        return Report(dataFile: dataFile, files: files, sampleRate: fs, channels: channels, samples: eeg.sampleCount,
                      scales: scales, events: counts, warnings: warnings)
    }

    // MARK: Sidecars

    static func eventsSidecar(codes: [String: Int], columns: [String], folders: [String] = []) -> [String: Any] {
        var levels: [String: String] = [:]
        for type in codes.keys { levels[type] = BIDSEvent.meaning(of: type) }
        var values: [String: String] = [:]
        for (type, code) in codes { values[String(code)] = type }
        let all: [String: [String: Any]] = [
            "onset": ["Description": "Seconds from the first EEG sample to the event's sample: the first sample at or after the engine time it happened (so round(onset × SamplingFrequency) = sample).", "Units": "s"],
            "duration": ["Description": "Its length on the samples (0 for an instant).", "Units": "s"],
            "trial_type": ["Description": "The event's kind.", "Levels": levels],
            "value": ["Description": "An integer code per trial_type, one to one (the event id MNE-BIDS uses).", "Levels": values],
            "sample": ["Description": "The first EEG sample (0-based) at or after the event."],
            "trial": ["Description": "The trial's number since the engine started (trials.jsonl, presses.csv)."],
            "mode": ["Description": "The engine's mode for the trial (TrainGeneric, Test, Verify, …)."],
            "target": ["Description": "The cued target's Utopia object ID (training and Verify): column obj_<target> of the stimulus file."],
            "pressed": ["Description": "The pressed control's object ID."],
            "control": ["Description": "The pressed control's identifier."],
            "ending": ["Description": "How the trial ended: completed, pressed-brain, pressed-touch, pressed-timeout, noPress, stopped-…"],
            "certainty": ["Description": "1 − Perr of the prediction that decided the press."],
            "recording": ["Description": "The engine recording folder of the trial or press, numbered from 1 in time order: a trial is its recording and its number (a resumed session's engine numbers from 1 again).",
                          "Levels": Dictionary(uniqueKeysWithValues: folders.enumerated().map { (String($0.offset + 1), $0.element) })],
            "step": ["Description": "The session step's number (steps.jsonl)."],
            "step_name": ["Description": "The session step's name."],
            "outcome": ["Description": "How the session step ended: done, passed, failed, timeout, skipped; for a trial, its step's, or interrupted for a trial of an attempt that was stopped and run again on resume."],
        ]
        var sidecar: [String: Any] = all.filter { columns.contains($0.key) }
        sidecar["StimulusPresentation"] = ["SoftwareName": "noisetag", "OperatingSystem": ProcessInfo.processInfo.operatingSystemVersionString]
        return sidecar
    }

    static func eegSidecar(_ recording: EngineRecording, _ eeg: RecordingEEG, options: Options, scales: [BDFWriter.ChannelScale],
                           objects: [UInt8], stimulusFile: String) -> [String: Any] {
        let fs = eeg.sampleRate
        let head = eeg.samples.map { channel in channel.prefix(Int(fs * 120)).map { $0.isFinite ? Double($0) : 0 } }
        let mains = MainsDetector.detect(head, sampleRate: fs)
        let simulated = recording.simulated ?? eeg.channelNames.allSatisfy { $0.hasPrefix("sim") }
        var noiseTagging: [String: Any] = [
            "StimulusFile": stimulusFile,
            "StimulusObjects": objects.map(Int.init),
            "TrialOnset": "trial events sit on the first sample at or after the trial's first STIMULUSEVENT, as the decoder cuts its trials",
            "QuantisationStepMicrovolts": scales.map(\.step).max() ?? 0,
            "Recordings": recording.folders.map(\.lastPathComponent),
            "FilledGaps": eeg.gaps.count,
        ]
        if let v = recording.settings.framesPerSecond { noiseTagging["FrameRate"] = v }
        if let v = recording.settings.framesPerBit { noiseTagging["FramesPerBit"] = v }
        if let v = recording.settings.shiftedTrainingCodes { noiseTagging["TrainingCodesShiftedAtRandom"] = v }
        if let participant = recording.participant { noiseTagging["SessionParticipant"] = participant }
        var object: [String: Any] = [
            "TaskName": options.task,
            "TaskDescription": "Code-modulated VEP (noise tagging) brain-computer interface: controls flicker with pseudo-random codes; the decoder picks the one whose code the EEG follows.",
            "SamplingFrequency": fs,
            "EEGChannelCount": eeg.channelNames.count,
            "EOGChannelCount": 0, "ECGChannelCount": 0, "EMGChannelCount": 0, "MiscChannelCount": 0, "TriggerChannelCount": 0,
            "PowerLineFrequency": mains.map { $0 as Any } ?? "n/a",
            "EEGReference": "n/a",
            "SoftwareFilters": "n/a",
            "HardwareFilters": "n/a",
            "RecordingDuration": Double(eeg.sampleCount) / fs,
            "RecordingType": "continuous",
            "SoftwareVersions": "noisetag",
            "NoiseTagging": noiseTagging,
        ]
        if simulated { object["Manufacturer"] = "noisetag (simulated amplifier)" }
        return object
    }

    /// `dataset_description.json` and `README` when absent; the subject's row in `participants.tsv`.
    static func datasetFiles(_ root: URL, subject: String) throws -> [URL] {
        var files: [URL] = []
        let description = root.appendingPathComponent("dataset_description.json")
        if !FileManager.default.fileExists(atPath: description.path) {
            files.append(try writeJSON([
                "Name": "noisetag recordings",
                "BIDSVersion": "1.9.0",
                "DatasetType": "raw",
                "GeneratedBy": [["Name": "noisetag", "Description": "noisetag recordings export"]],
            ], description))
        }
        let readme = root.appendingPathComponent("README")
        if !FileManager.default.fileExists(atPath: readme.path) {
            files.append(try write("""
                c-VEP (noise tagging) recordings exported by `noisetag recordings export`.
                Each *_stim.tsv.gz holds every stimulus object's state at every EEG sample;
                *_events.tsv the trials, cued targets, presses, mode changes and session steps.
                See Protocols/recordings-bids.md in the noisetag sources.

                """, readme))
        }
        let participants = root.appendingPathComponent("participants.tsv")
        // Any line ending (a spreadsheet on Windows writes CRLF, one Character to Swift, which a split on "\n" never cuts).
        var lines = (try? String(contentsOf: participants, encoding: .utf8))?.split(whereSeparator: \.isNewline).map(String.init) ?? []
        if lines.isEmpty { lines = ["participant_id"] }
        if !lines.dropFirst().contains(where: { $0.split(separator: "\t").first.map(String.init) == "sub-\(subject)" }) {
            let width = lines[0].split(separator: "\t").count
            lines.append((["sub-\(subject)"] + Array(repeating: "n/a", count: max(0, width - 1))).joined(separator: "\t"))
            files.append(try write(lines.joined(separator: "\n") + "\n", participants))
        }
        return files
    }

    // MARK: Writing

    static func write(_ text: String, _ url: URL) throws -> URL {
        do { try Data(text.utf8).write(to: url) } catch {
            throw LabFormatError(url.path, "cannot write: \(FileProblem.whyNotWritten(url, error))")
        }
        return url
    }

    static func writeJSON(_ object: [String: Any], _ url: URL) throws -> URL {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return try write(String(decoding: data, as: UTF8.self) + "\n", url)
    }

    /// "250" for a whole number, else the shortest exact decimal.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Channel names made unique and non-empty (BIDS and MNE need both).
    static func uniqueNames(_ names: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return names.enumerated().map { index, raw in
            var name = BDFWriter.ascii(raw).trimmingCharacters(in: .whitespaces)
            if name.isEmpty { name = String(index + 1) }
            name = String(name.prefix(16))
            if let n = seen[name] {
                seen[name] = n + 1
                name = String(name.prefix(13)) + "-\(n + 1)"
            } else {
                seen[name] = 1
            }
            return name
        }
    }
}
