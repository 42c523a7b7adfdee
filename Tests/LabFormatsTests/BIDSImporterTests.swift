import Foundation
import TestSupport
import Testing
@testable import LabFormats

/// BIDS-EEG folders the tests build from the BrainVision and BDF fixtures.
@Suite struct BIDSImporterTests {
    static let stem = "sub-01_task-cvep"

    /// `sub-01/eeg/` holding the BrainVision fixture renamed the BIDS way, and
    /// the given sidecars; returns the `sub-01` folder.
    static func folder(events: String?, channels: String? = nil) throws -> URL {
        let subject = try ScratchFolder.make().appendingPathComponent("sub-01")
        let eeg = subject.appendingPathComponent("eeg")
        try FileManager.default.createDirectory(at: eeg, withIntermediateDirectories: true)
        let source = LabFixtures.url("formats/brainvision")
        let header = try String(contentsOf: source.appendingPathComponent("test.vhdr"), encoding: .utf8)
            .replacingOccurrences(of: "DataFile=test.eeg", with: "DataFile=\(stem)_eeg.eeg")
            .replacingOccurrences(of: "MarkerFile=test.vmrk", with: "MarkerFile=\(stem)_eeg.vmrk")
        try Data(header.utf8).write(to: eeg.appendingPathComponent("\(stem)_eeg.vhdr"))
        for ext in ["eeg", "vmrk"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent("test.\(ext)"), to: eeg.appendingPathComponent("\(stem)_eeg.\(ext)"))
        }
        if let events { try Data(events.utf8).write(to: eeg.appendingPathComponent("\(stem)_events.tsv")) }
        if let channels { try Data(channels.utf8).write(to: eeg.appendingPathComponent("\(stem)_channels.tsv")) }
        return subject
    }

    @Test func eventsAndChannelsComeFromTheSidecars() throws {
        let events = "onset\tduration\ttrial_type\tvalue\n0.486\t0.0\tstart_trial\t253\n1.0006\tn/a\tn/a\t254\r\n0.1\t1\tlabel=3\tn/a\n"
        let names = (1...32).map { "E\($0)" }
        let channels = "name\ttype\tunits\tstatus\n" + names.map { "\($0)\tEEG\tµV\t\($0 == "E7" ? "bad" : "good")" }.joined(separator: "\n") + "\n"
        let r = try BIDSImporter.read(try Self.folder(events: events, channels: channels))
        #expect(r.sampleRate == 1000 && r.sampleCount == 7900 && r.channelNames == names)
        #expect(r.samples[0][0] == -23.5)
        #expect(r.markers == [RecordingMarker(sample: 100, seconds: 0.1, duration: 1, text: "label=3"),
                              RecordingMarker(sample: 486, seconds: 0.486, duration: 0, text: "start_trial"),
                              RecordingMarker(sample: 1001, seconds: 1.0006, text: "254")])  // round(1000.6)
        #expect(r.source == "BIDS-EEG BrainVision from the Vision Recorder, \(Self.stem)_eeg.vhdr")
        #expect(r.warnings.contains("\(Self.stem)_channels.tsv: marks 1 channel(s) bad: E7"))
    }

    @Test func valueColumnAloneAndTheDataFileDirectly() throws {
        let subject = try Self.folder(events: "onset\tduration\tvalue\n2.5\tn/a\t7\n1\tn/a\tn/a\n")
        let file = subject.appendingPathComponent("eeg/\(Self.stem)_eeg.vhdr")
        let r = try BIDSImporter.read(file)
        #expect(r.markers == [RecordingMarker(sample: 2500, seconds: 2.5, text: "7")])
        #expect(r.warnings.last == "\(Self.stem)_events.tsv: 1 event(s) with neither trial_type nor value left out (line 3)")
        #expect(r.channelNames.first == "FP1")  // no channels.tsv: the header's names
    }

    @Test func withoutEventsTheDataFilesMarkersStay() throws {
        let r = try BIDSImporter.read(try Self.folder(events: nil).appendingPathComponent("eeg"))
        #expect(r.markers.count == 14 && r.markers[1].text == "Stimulus/S253")
        #expect(r.warnings.last == "\(Self.stem)_eeg.vhdr: no \(Self.stem)_events.tsv beside it; the data file's own 14 markers kept")
    }

    @Test func bdfInBIDS() throws {
        let dir = try ScratchFolder.make()
        try FileManager.default.copyItem(at: LabFixtures.url("formats/mne_test_biosemi72_2048Hz.bdf"), to: dir.appendingPathComponent("sub-02_eeg.bdf"))
        try Data("onset\tduration\ttrial_type\n0.28759765625\t0.01025390625\t128\n".utf8).write(to: dir.appendingPathComponent("sub-02_events.tsv"))
        let r = try BIDSImporter.read(dir)
        #expect(r.channelNames.count == 72 && r.markers.map(\.sample) == [589] && r.markers.map(\.text) == ["128"])
    }

    @Test func wrongFoldersAndTablesAreOneLineErrors() throws {
        let empty = try ScratchFolder.make()
        #expect(ScratchFolder.message { _ = try BIDSImporter.read(empty) } == "\(empty.lastPathComponent): holds no *_eeg.bdf, *_eeg.edf or *_eeg.vhdr file")
        let subject = try Self.folder(events: "onset\tduration\ttrial_type\nsoon\t0\tx\n")
        #expect(ScratchFolder.message { _ = try BIDSImporter.read(subject) } == "\(Self.stem)_events.tsv: line 2: onset \"soon\" is not a number of seconds")
        let eeg = subject.appendingPathComponent("eeg")
        try Data("onset\tduration\tsample\n1\t0\t1000\n".utf8).write(to: eeg.appendingPathComponent("\(Self.stem)_events.tsv"))
        #expect(ScratchFolder.message { _ = try BIDSImporter.read(subject) } == "\(Self.stem)_events.tsv: has neither a \"trial_type\" nor a \"value\" column")
        try FileManager.default.copyItem(at: eeg.appendingPathComponent("\(Self.stem)_eeg.vhdr"), to: eeg.appendingPathComponent("sub-01_task-other_eeg.vhdr"))
        #expect(ScratchFolder.message { _ = try BIDSImporter.read(eeg) }
                == "eeg: holds 2 recordings (sub-01_task-cvep_eeg.vhdr, sub-01_task-other_eeg.vhdr); name one of them")
        let notes = eeg.appendingPathComponent("notes.txt")
        try Data("hi".utf8).write(to: notes)
        #expect(ScratchFolder.message { _ = try BIDSImporter.read(notes) } == "notes.txt: is not a BIDS-EEG data file (*_eeg.bdf, *_eeg.edf or *_eeg.vhdr)")
    }
}
