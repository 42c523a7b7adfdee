import Foundation
import TestSupport
import Testing
@testable import LabFormats

/// The real BDF/EDF+ fixtures (expected values from MNE 1.13.2's read_raw_bdf/read_raw_edf,
/// in µV, rounded to float32) and small malformed files the tests write.
@Suite struct EDFImporterTests {
    static func fixture(_ name: String) -> URL { LabFixtures.url("formats/" + name) }

    static func close(_ a: Float, _ b: Float) -> Bool { abs(a - b) <= max(1e-3, abs(b) * 1e-6) }

    @Test func bioSemi72ReadsLikeMNE() throws {
        let r = try EDFImporter.read(Self.fixture("mne_test_biosemi72_2048Hz.bdf"))
        #expect(r.sampleRate == 2048 && r.sampleCount == 2048)
        #expect(r.channelNames.count == 72 && r.channelNames.first == "Fp1" && r.channelNames.last == "EXG8")
        #expect(!r.channelNames.contains("Status"))
        #expect(Self.close(r.samples[0][0], 14660.58203125))
        #expect(Self.close(r.samples[5][1000], -2592.5419921875))
        #expect(Self.close(r.samples[71][2047], -259405.46875))
        // Status low 16 bits: 128 at samples 589–609, the high byte (0x98) ignored.
        #expect(r.markers.map(\.text) == ["128"] && r.markers.first?.sample == 589)
        #expect(r.markers.first?.duration == 21.0 / 2048)
        #expect(r.filtered == "HP: DC; LP: 417 Hz")
        #expect(r.source == "BDF, mne_test_biosemi72_2048Hz.bdf")
        #expect(r.warnings.isEmpty)
    }

    @Test func newtest17HasEightyStatusChanges() throws {
        let r = try EDFImporter.read(Self.fixture("Newtest17-256.bdf"))
        #expect(r.sampleRate == 256 && r.sampleCount == 15360 && r.channelNames.count == 16)
        #expect(Self.close(r.samples[0][0], -526.6094360351562))
        #expect(Self.close(r.samples[15][15359], -166.35939025878906))
        #expect(Self.close(r.samples[7][5000], 60.140628814697266))
        // The port rests at 255 from the first sample: that is a marker at 0, and said.
        #expect(r.markers.count == 81)
        #expect(r.markers.prefix(4).map(\.sample) == [0, 212, 414, 586])
        #expect(r.markers.prefix(4).map(\.text) == ["255", "254", "255", "254"])
        #expect(r.markers.last?.sample == 15304 && r.markers.last?.text == "255")
        #expect(r.markers.first?.duration == 212.0 / 256 && r.markers[1].duration == 202.0 / 256)
        #expect(r.warnings == ["Newtest17-256.bdf: Status was already 255 at the first sample: a marker \"255\" at 0.000 s (a trigger raised before the recording began, or a port resting at that value)"])
    }

    @Test func edfPlusAnnotationsWithDurations() throws {
        let r = try EDFImporter.read(Self.fixture("test_edf_overlapping_annotations.edf"))
        #expect(r.sampleRate == 128 && r.sampleCount == 15872 && r.channelNames.count == 64)
        #expect(r.channelNames.first == "Fc5." && !r.channelNames.contains("EDF Annotations"))
        #expect(r.samples[0][0] == 21 && r.samples[63][15871] == 0 && r.samples[10][5000] == 59)
        #expect(r.markers.count == 38)
        #expect(Set(r.markers.map(\.text)) == ["T0", "T1", "T2"] && r.markers.filter { $0.text == "T0" }.count == 19)
        #expect(r.markers[0] == RecordingMarker(sample: 0, seconds: 0, duration: 1.375, text: "T0"))
        #expect(r.markers[5] == RecordingMarker(sample: 1841, seconds: 14.38, duration: 5.125, text: "T1"))
        #expect(r.markers[6].sample == 2496 && r.markers[6].text == "T0")
        #expect(r.source == "EDF+C from BCI2000, test_edf_overlapping_annotations.edf")
        #expect(r.filtered == nil)  // "HP:0Hz LP:0Hz N:0Hz" states no filter
    }

    /// One EEG channel of 4 samples per 1 s record, `records` records, value = 10 r + i.
    static func small(records: Int = 3) -> EDFTestFile {
        var f = EDFTestFile(records: records)
        f.signals = [.init(label: "Oz", physical: ("-32768", "32767"), samplesPerRecord: 4, values: { r in (0..<4).map { Int32(10 * r + $0) } })]
        return f
    }

    @Test func scalesDigitalToPhysicalAndInvertedRanges() throws {
        var f = Self.small(records: 1)
        f.signals[0].physical = ("100", "-100")  // inverted
        f.signals[0].digital = ("-100", "100")
        f.signals.append(.init(label: "Pz", dimension: "mV", physical: ("0", "1"), digital: ("0", "1000"), samplesPerRecord: 4,
                               values: { _ in [0, 1, 500, -2] }))
        let r = try EDFImporter.read(try f.write())
        #expect(r.samples[0] == [0, -1, -2, -3])
        #expect(r.samples[1] == [0, 1, 500, -2])  // 1 mV / 1000 steps = 1 µV per step
    }

    @Test func truncatedLastRecordKeepsTheCompleteOnes() throws {
        var bytes = Self.small(records: 3).bytes
        bytes.removeLast(3)
        let url = try ScratchFolder.make().appendingPathComponent("cut.edf")
        try Data(bytes).write(to: url)
        let r = try EDFImporter.read(url)
        #expect(r.sampleCount == 8 && r.samples[0] == [0, 1, 2, 3, 10, 11, 12, 13])
        #expect(r.warnings == ["cut.edf: header says 3 data records, the file holds 2 complete ones and 5 bytes of a partial one; read 2"])
    }

    @Test func headerLyingAboutRecordCount() throws {
        var f = Self.small(records: 2)
        f.statedRecords = "10"
        let r = try EDFImporter.read(try f.write("lies.edf"))
        #expect(r.sampleCount == 8)
        #expect(r.warnings.first?.hasPrefix("lies.edf: header says 10 data records, the file holds 2") == true)
        f.statedRecords = "-1"  // unknown: count what is there
        #expect(try EDFImporter.read(try f.write()).sampleCount == 8)
        f.statedRecords = "1"  // fewer than written: the rest is ignored, said
        let short = try EDFImporter.read(try f.write("more.edf"))
        #expect(short.sampleCount == 4 && short.warnings == ["more.edf: 8 bytes after the last of the 1 data records ignored"])
    }

    @Test func nonNumericFieldsAreOneLineErrors() throws {
        var f = Self.small()
        f.signals[0].physical.0 = "abc"
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("bad.edf")) }
                == "bad.edf: signal 1 (Oz): physical minimum is not a number: \"abc\"")
        f = Self.small()
        f.statedRecords = "x"
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("bad.edf")) }
                == "bad.edf: number of data records is not a whole number: \"x\"")
        f = Self.small()
        f.signals[0].digital = ("5", "5")
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("flat.edf")) }
                == "flat.edf: signal 1 (Oz): empty digital range, cannot scale")
        f = Self.small()
        f.signals[0].physical = ("-1e300", "1e300")  // a number, but no float holds its samples
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("huge.edf")) }
                == "huge.edf: signal 1 (Oz): physical range -1e+300 to 1e+300 uV is beyond a 32-bit float (±3.4e38), cannot scale")
        f = Self.small()
        f.signals[0].physical.0 = "-8\n\u{1}6"  // bytes of a damaged header quoted in the error
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("torn.edf")) }
                == "torn.edf: signal 1 (Oz): physical minimum is not a number: \"-8\\n\\u{1}6\"")
    }

    @Test func damagedHeadersAreOneLineErrors() throws {
        let dir = try ScratchFolder.make()
        let tiny = dir.appendingPathComponent("tiny.bdf")
        try Data([0xFF, 0x42]).write(to: tiny)
        #expect(ScratchFolder.message { _ = try EDFImporter.read(tiny) } == "tiny.bdf: too short for an EDF/BDF header (2 bytes, needs at least 256)")
        let text = dir.appendingPathComponent("notes.edf")
        try Data(String(repeating: "hello ", count: 60).utf8).write(to: text)
        #expect(ScratchFolder.message { _ = try EDFImporter.read(text) }.hasPrefix("notes.edf: not an EDF or BDF file"))
        let header = Array(Self.small().bytes.prefix(300))
        let cut = dir.appendingPathComponent("cut.edf")
        try Data(header).write(to: cut)
        #expect(ScratchFolder.message { _ = try EDFImporter.read(cut) } == "cut.edf: header is truncated (1 signals need 512 bytes, the file has 300)")
        let noRecord = dir.appendingPathComponent("empty.edf")
        try Data(Self.small().bytes.prefix(512 + 5)).write(to: noRecord)
        #expect(ScratchFolder.message { _ = try EDFImporter.read(noRecord) }.hasPrefix("empty.edf: holds no complete data record"))
        #expect(ScratchFolder.message { _ = try EDFImporter.read(dir.appendingPathComponent("absent.edf")) }.hasPrefix("absent.edf: no such file"))
    }

    @Test func oddlyPaddedHeaderFieldsStillRead() throws {
        var f = Self.small(records: 1)
        f.headerBytesField = "513"  // off by a byte
        f.signals[0].physical = ("-32768\0", "+32767")
        f.signals[0].digital = (" -32768", "32767.0")
        let r = try EDFImporter.read(try f.write("odd.edf"))
        #expect(r.samples[0] == [0, 1, 2, 3])
        #expect(r.warnings == ["odd.edf: header says it is 513 bytes, but 1 signals make it 512; read as 512"])
    }

    @Test func annotationsOnlyFileIsAnError() throws {
        var f = EDFTestFile(reserved: "EDF+C", records: 1, duration: "0")
        f.signals = [EDFTestFile.annotations(30) { _ in EDFTestFile.timeKeeping("0") + EDFTestFile.tal("1.5", "2", "sleep stage W") }]
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("hypnogram.edf")) }
                == "hypnogram.edf: holds annotations only (1 annotations, no trigger channel), no signal to import")
    }

    @Test func annotationsFromSeveralSignalsAfterAStartOffset() throws {
        var f = Self.small(records: 2)
        f.reserved = "EDF+C"
        // The first sample is 0.25 s after the start time; onsets count from the start time.
        f.signals.append(EDFTestFile.annotations(20) { r in
            EDFTestFile.timeKeeping(r == 0 ? "0.25" : "1.25") + (r == 1 ? EDFTestFile.tal("1.75", nil, "start", "label=2") : "")
        })
        f.signals.append(EDFTestFile.annotations(10) { r in r == 0 ? EDFTestFile.tal("0.5", "0.25", "cue") : "" })
        let r = try EDFImporter.read(try f.write())
        #expect(r.channelNames == ["Oz"] && r.sampleCount == 8)
        #expect(r.markers == [RecordingMarker(sample: 1, seconds: 0.25, duration: 0.25, text: "cue"),
                              RecordingMarker(sample: 6, seconds: 1.5, text: "start"),
                              RecordingMarker(sample: 6, seconds: 1.5, text: "label=2")])
    }

    @Test func anAnnotationSignalInLowerCaseAndAnUnlabelledSignalAreRead() throws {
        var f = Self.small(records: 2)
        f.reserved = "EDF+C"
        f.signals.append(.init(label: "", physical: ("-32768", "32767"), samplesPerRecord: 4, values: { _ in [1, 2, 3, 4] }))
        var lower = EDFTestFile.annotations(20) { r in EDFTestFile.timeKeeping("\(r)") + (r == 1 ? EDFTestFile.tal("1.5", nil, "start") : "") }
        lower.label = "EDF annotations"
        f.signals.append(lower)
        let r = try EDFImporter.read(try f.write())
        // The unlabelled signal is named by its number, so --channels 2 can choose it; the markers are not lost.
        #expect(r.channelNames == ["Oz", "2"])
        #expect(r.markers == [RecordingMarker(sample: 6, seconds: 1.5, text: "start")])
    }

    @Test func discontinuousRecordsArePlacedAtTheirOnsets() throws {
        var f = Self.small(records: 3)
        f.reserved = "EDF+D"
        f.signals.append(EDFTestFile.annotations(10) { r in EDFTestFile.timeKeeping(["0", "1", "3"][r]) + (r == 2 ? EDFTestFile.tal("3.5", nil, "late") : "") })
        let r = try EDFImporter.read(try f.write("d.edf"))
        #expect(r.samples[0] == [0, 1, 2, 3, 10, 11, 12, 13, 0, 0, 0, 0, 20, 21, 22, 23])
        #expect(r.markers == [RecordingMarker(sample: 14, seconds: 3.5, text: "late")])
        #expect(r.warnings == ["d.edf: EDF+D (discontinuous): records placed at their onsets, 1 s of gaps filled with zeros"])
        f.signals[1].tals = { r in EDFTestFile.timeKeeping(["0", "1", "99999999"][r]) }
        #expect(ScratchFolder.message { _ = try EDFImporter.read(try f.write("far.edf")) }
                == "far.edf: EDF+D record onsets run from 0 s to 1e+08 s, far from the 3 s recorded")
    }

    /// Damaged copies of a small EDF+D file (bytes overwritten, the file cut anywhere) read or fail with an LabFormatError, never crash.
    @Test func damagedBytesNeverCrash() throws {
        var f = Self.small(records: 3)
        f.reserved = "EDF+D"
        f.signals.append(EDFTestFile.annotations(12) { r in EDFTestFile.timeKeeping(String(r)) + EDFTestFile.tal("\(r).5", "1", "x") })
        let clean = f.bytes
        let dir = try ScratchFolder.make()
        var seed: UInt64 = 20261125
        for trial in 0..<300 {
            var bytes = clean
            if trial % 3 == 0 {
                bytes.removeLast(Int(seed % UInt64(bytes.count)))
            } else {
                for _ in 0..<3 {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    bytes[Int((seed >> 33) % UInt64(bytes.count))] = [0x20, 0x2D, 0x39, 0x00, 0x14, 0xFF, 0x2B, 0x30][Int(seed % 8)]
                }
            }
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let url = dir.appendingPathComponent("fuzz\(trial).edf")
            try Data(bytes).write(to: url)
            do { _ = try EDFImporter.read(url) } catch is LabFormatError {} catch { Issue.record("not an LabFormatError: \(error)") }
        }
    }

    @Test func signalsAtOtherRatesAreDropped() throws {
        var f = Self.small(records: 2)
        f.signals.append(.init(label: "Pz", samplesPerRecord: 4, values: { _ in [1, 2, 3, 4] }))
        f.signals.append(.init(label: "Accel", dimension: "g", samplesPerRecord: 1, values: { _ in [7] }))
        let r = try EDFImporter.read(try f.write("rates.edf"))
        #expect(r.channelNames == ["Oz", "Pz"] && r.sampleRate == 4)
        #expect(r.warnings == ["rates.edf: 1 signal(s) not at 4 Hz dropped: Accel (1 Hz)"])
        #expect(r.otherRateChannels == ["Accel": "it is sampled at 1 Hz, and an import keeps one rate, 4 Hz, that of most channels"])
    }

    @Test func bdfTwentyFourBitAndStatusLowSixteenBits() throws {
        var f = EDFTestFile(bdf: true, records: 2)
        f.signals = [
            .init(label: "A1", physical: ("-8388608", "8388607"), digital: ("-8388608", "8388607"), samplesPerRecord: 4,
                  values: { r in r == 0 ? [-8388608, -1, 0, 8388607] : [65536, -65536, 1, 2] }),
            .init(label: "Status", dimension: "Boolean", physical: ("-8388608", "8388607"), digital: ("-8388608", "8388607"),
                  samplesPerRecord: 4, values: { r in
                      // high byte: status bits toggling (ignored); low 16 bits: 0, 0, 5, 5 | 0, 0x1FF, 0x1FF, 0
                      r == 0 ? [0x1C0000, 0x1D0000, 0x1C0005, -0x630000 + 5] : [0x1C0000, 0x1C01FF, 0x1D01FF, 0] }),
        ]
        let r = try EDFImporter.read(try f.write("t.bdf"))
        #expect(r.channelNames == ["A1"] && r.samples[0] == [-8388608, -1, 0, 8388607, 65536, -65536, 1, 2])
        #expect(r.markers.map(\.text) == ["5", "511"] && r.markers.map(\.sample) == [2, 5])
        #expect(r.markers.map(\.duration) == [0.5, 0.5])
    }

    @Test func aTriggerHighAtTheFirstSampleIsAMarkerThereAndSaid() throws {
        var f = EDFTestFile(bdf: true, records: 2)
        f.signals = [
            .init(label: "A1", physical: ("-8388608", "8388607"), digital: ("-8388608", "8388607"), samplesPerRecord: 4,
                  values: { _ in [0, 1, 2, 3] }),
            .init(label: "Status", dimension: "Boolean", physical: ("-8388608", "8388607"), digital: ("-8388608", "8388607"),
                  samplesPerRecord: 4, values: { r in
                      // low 16 bits 5, 5, 0, 0 | 7, 7, 7, 7; the high byte set throughout (status bits)
                      r == 0 ? [0x3C0005, 0x3C0005, 0x3C0000, 0x3C0000] : [0x3C0007, 0x3C0007, 0x3C0007, 0x3C0007] }),
        ]
        let r = try EDFImporter.read(try f.write("high.bdf"))
        #expect(r.markers.map(\.text) == ["5", "7"] && r.markers.map(\.sample) == [0, 4])
        #expect(r.markers.map(\.duration) == [0.5, nil])
        #expect(r.warnings == ["high.bdf: Status was already 5 at the first sample: a marker \"5\" at 0.000 s (a trigger raised before the recording began, or a port resting at that value)"])
    }
}
