import Foundation
import TestSupport
import Testing
@testable import LabFormats

@Suite struct XDFImporterTests {
    @Test func theFapraRecordingGivesTenLabelledTrials() throws {
        let r = try XDFImporter.read(LabFixtures.url("fapra_sub-p001_ses-s001_run-001_task-training.xdf"))
        #expect(r.samples.count == 8 && r.sampleCount == 16270)
        #expect(abs(r.sampleRate - 250.249) < 0.01)
        #expect(r.markers.count == 62 && r.markers[0].text == "start_cue;label=18;key=Y")
        #expect(r.warnings.isEmpty)
        let codes = try CodesFile.read(LabFixtures.url("mgold_61_6521.npz"))
        let options = TrialCutOptions(trialStart: "^start_trial$", label: "label=(\\d+)", codes: codes, codeRate: 60, classes: 53)
        let d = try MarkerTrialCutter.cut(r, options: options).dataset
        #expect(d.labels == [18, 18, 46, 2, 41, 19, 0, 43, 17, 31])
        #expect(d.header.nClasses == 53 && d.header.nChannels == 8)
        #expect(d.header.nSamples > 1000)
    }

    @Test func bciEssentialsNeedsTheMarkerStreamNamed() throws {
        let url = LabFixtures.url("formats/bci_essentials_switch_example.xdf")
        #expect(LabFixtures.message { _ = try XDFImporter.read(url) }.contains("several marker streams"))
        let r = try XDFImporter.read(url, markers: "UnityMarkerStream")
        #expect(r.samples.count == 16 && abs(r.sampleRate - 256) < 0.05)
        #expect(r.channelNames.prefix(3) == ["F3", "Fz", "F4"])
        #expect(r.markers.count == 71 && r.markers[0].text == "Trial Started")
        #expect(r.markers.allSatisfy { $0.sample >= 0 && $0.sample < r.sampleCount })
    }

    @Test func aFileCutShortKeepsItsWholeChunksAndOneCutBeforeAnyStreamIsOneLine() throws {
        let bytes = [UInt8](try Data(contentsOf: LabFixtures.url("fapra_sub-p001_ses-s001_run-001_task-training.xdf")))
        let whole = try XDFImporter.read(LabFixtures.url("fapra_sub-p001_ses-s001_run-001_task-training.xdf"))
        let url = try LabFixtures.scratch("cut.xdf", Array(bytes.prefix(300_000)))
        let cut = try XDFImporter.read(url)
        #expect(cut.sampleCount > 1000 && cut.sampleCount < whole.sampleCount && cut.markers.count < whole.markers.count)
        #expect(cut.warnings.first?.hasPrefix("the file ends inside chunk ") == true, "\(cut.warnings)")
        #expect(cut.warnings.first?.contains(" of 300000): a recording cut short? The ") == true, "\(cut.warnings)")
        // The samples it keeps are the whole file's.
        #expect(cut.samples[0].prefix(1000) == whole.samples[0].prefix(1000))
        let headless = try LabFixtures.scratch("cut.xdf", Array(bytes.prefix(40)))
        let message = LabFixtures.message { _ = try XDFImporter.read(headless) }
        #expect(message.hasPrefix("cut.xdf: chunk ") && message.contains("truncated"), "\(message)")
        let notXDF = try LabFixtures.scratch("x.xdf", Array("hello".utf8))
        #expect(LabFixtures.message { _ = try XDFImporter.read(notXDF) } == "x.xdf: not an XDF file (it does not start with \"XDF:\")")
        var badLength = XDFBuilder.simple()
        badLength[4] = 3
        let corrupt = try LabFixtures.scratch("c.xdf", badLength)
        #expect(LabFixtures.message { _ = try XDFImporter.read(corrupt) }.contains("length field of 3 bytes"))
    }

    @Test func missingStreamsAreNamed() throws {
        let url = try LabFixtures.scratch("nomarkers.xdf", XDFBuilder.simple(markerStream: false))
        #expect(LabFixtures.message { _ = try XDFImporter.read(url) }.hasPrefix("nomarkers.xdf: no marker stream"))
        var b = XDFBuilder()
        b.stream(2, name: "cues", type: "Markers", channels: 1, rate: 0, format: "string")
        let noEEG = try LabFixtures.scratch("noeeg.xdf", b.bytes)
        #expect(LabFixtures.message { _ = try XDFImporter.read(noEEG) }.hasPrefix("noeeg.xdf: no EEG stream"))
        let wrong = try LabFixtures.scratch("s.xdf", XDFBuilder.simple())
        #expect(LabFixtures.message { _ = try XDFImporter.read(wrong, stream: "nope") }.contains("no numeric stream named \"nope\""))
    }

    @Test func markersLandOnTheSampleAtOrAfterThem() throws {
        let url = try LabFixtures.scratch("m.xdf", XDFBuilder.simple(markers: [(1001.0, "a"), (1002.004, "b"), (999, "early")]))
        let r = try XDFImporter.read(url)
        #expect(r.channelNames == ["Oz", "Pz"] && abs(r.sampleRate - 100) < 1e-6)
        #expect(r.markers.map(\.sample) == [100, 201, -100])
        #expect(abs(r.markers[0].seconds - 1) < 1e-9)
        #expect(r.warnings == ["1 of 3 marker(s) of \"cues\" fall outside the EEG recording"])
    }

    @Test func clockOffsetsAreApplied() throws {
        var b = XDFBuilder()
        b.stream(1, name: "amp", type: "EEG", channels: 1, rate: 100, format: "float32")
        b.stream(2, name: "cues", type: "Markers", channels: 1, rate: 0, format: "string")
        b.samples(1, stamps: (0..<300).map { 10 + Double($0) / 100 }, rows: (0..<300).map { [Float($0)] })
        b.strings(2, stamps: [11], texts: ["x"])
        b.clockOffset(2, time: 0, offset: 0.5)
        b.clockOffset(2, time: 20, offset: 0.5)
        let r = try XDFImporter.read(try LabFixtures.scratch("o.xdf", b.bytes))
        #expect(r.markers.map(\.sample) == [150])
    }

    @Test func omittedStampsFollowTheNominalRate() throws {
        let url = try LabFixtures.scratch("o.xdf", XDFBuilder.simple(n: 400, stamp: { $0 % 4 == 0 ? 1000 + Double($0) / 100 : nil }))
        let r = try XDFImporter.read(url)
        #expect(abs(r.sampleRate - 100) < 1e-6 && r.markers.map(\.sample) == [100])
    }

    @Test func isolatedNaNsAreInterpolatedAndADeadChannelLeftOut() throws {
        let holed: (Int, Int) -> Float = { i, c in c == 1 && (i == 10 || i == 11) ? Float.nan : Float(i) }
        let holes = try LabFixtures.scratch("nan.xdf", XDFBuilder.simple(value: holed))
        let r = try XDFImporter.read(holes)
        #expect(r.samples[1][10] == 10 && r.samples[1][11] == 11)
        #expect(r.warnings == ["channel Pz: 2 NaN or infinite sample(s), the first at sample 10 (0.100 s), replaced by linear interpolation"])
        #expect(r.gaps.isEmpty)
        // A dropout longer than 0.1 s (here 0.3 s on one channel, 0.2 s overlapping it on the other) is a gap, not a repair.
        let long: (Int, Int) -> Float = { i, c in (c == 0 && (100..<130).contains(i)) || (c == 1 && (120..<140).contains(i)) ? .nan : Float(i) }
        #expect(try XDFImporter.read(try LabFixtures.scratch("gap.xdf", XDFBuilder.simple(value: long))).gaps == [100..<140])
        let flat: (Int, Int) -> Float = { i, c in c == 0 ? Float.nan : Float(i) }
        let dead = try XDFImporter.read(try LabFixtures.scratch("dead.xdf", XDFBuilder.simple(value: flat)))
        #expect(dead.channelNames == ["Pz"] && dead.samples.count == 1 && dead.samples[0][7] == 7)
        #expect(dead.warnings == ["channel Oz holds no finite sample (all 500 are NaN or infinite): left out"])
        #expect(dead.deadChannels == ["Oz"])
        let none = try LabFixtures.scratch("none.xdf", XDFBuilder.simple(value: { _, _ in Float.infinity }))
        #expect(LabFixtures.message { _ = try XDFImporter.read(none) } == "none.xdf: stream \"amp\": no channel holds a finite sample (all 2 are NaN or infinite throughout)")
    }

    @Test func aClockResetIsSegmentedAndReported() throws {
        // 300 samples from t = 1000, then the clock restarts at t = 5.
        let stamp: (Int) -> Double = { $0 < 300 ? 1000 + Double($0) / 100 : 5 + Double($0 - 300) / 100 }
        let url = try LabFixtures.scratch("reset.xdf", XDFBuilder.simple(stamp: stamp, markers: [(1001, "first"), (5.5, "after reset")]))
        let r = try XDFImporter.read(url)
        #expect(r.sampleCount == 500 && abs(r.sampleRate - 100) < 1e-6)
        #expect(r.markers.map(\.sample) == [100, 350])
        #expect(r.warnings.count == 1 && r.warnings[0].hasPrefix("EEG time stamps jump back 997.990 s after sample 299"))
    }

    @Test func aGapIsSegmentedAndReported() throws {
        let stamp: (Int) -> Double = { $0 < 200 ? 1000 + Double($0) / 100 : 1003 + Double($0 - 200) / 100 }
        let url = try LabFixtures.scratch("gap.xdf", XDFBuilder.simple(stamp: stamp, markers: [(1002.5, "in gap"), (1003.5, "after")]))
        let r = try XDFImporter.read(url)
        #expect(r.markers.map(\.sample) == [200, 250])
        #expect(r.warnings.first?.contains("skip 1.010 s after sample 199") == true)
        #expect(r.warnings.first?.contains("about 100 sample(s) missing") == true)
        #expect(r.markers.map(\.inSkip) == [true, false])
        #expect(r.skips.count == 1 && r.skips[0].sample == 200 && abs(r.skips[0].seconds - 1.0) < 1e-6)
        // A clock reset is no skip: its markers are placed, not flagged.
        let reset = try XDFImporter.read(try LabFixtures.scratch("reset.xdf", XDFBuilder.simple(
            stamp: { $0 < 300 ? 1000 + Double($0) / 100 : 5 + Double($0 - 300) / 100 }, markers: [(1001, "first"), (5.5, "after reset")])))
        #expect(reset.skips.isEmpty && !reset.markers.contains(where: \.inSkip))
    }

    @Test func trialsInOrOverASkipAreLeftOutAndSetNoLength() throws {
        // 100 Hz, trials of 1 s; 2 s of samples lost from 9 s: the trial at 8.5 s runs over the skip and the
        // one at 10 s starts in it; --trial-end spans and start gaps across it set no length.
        let stamp: (Int) -> Double = { $0 < 900 ? 1000 + Double($0) / 100 : 1002 + Double($0) / 100 }
        var markers: [(Double, String)] = []
        for (k, start) in [1, 3.5, 6, 8.5, 10, 12.5, 15].enumerated() {
            markers += [(1000 + start - 0.2, "label=\(k % 2)"), (1000 + start, "start"), (1000 + start + 1, "stop")]
        }
        let recording = try XDFImporter.read(try LabFixtures.scratch("skip.xdf", XDFBuilder.simple(n: 1600, stamp: stamp, markers: markers)))
        let options = TrialCutOptions(trialStart: "^start$", label: "^label=(\\d+)$", codes: [[0, 1], [1, 0]], codeRate: 10)
        var ended = options
        ended.trialEnd = "^stop$"
        let (d, warnings) = try MarkerTrialCutter.cut(recording, options: ended)
        #expect(d.header.nSamples == 100, "the trials' own 1 s")
        #expect(d.header.nTrials == 5)
        #expect(warnings.contains { $0.hasPrefix("trials 4 (at 8.500 s), 5 (at 9.000 s) start in or run over a skip in the EEG's time stamps") }, "\(warnings)")
        #expect(try MarkerTrialCutter.cut(recording, options: options).dataset.header.nSamples == 250, "the start gap in time")
    }

    @Test func aStreamLostToACutIsSaidToBeLostNotMissing() throws {
        // Cut inside the marker stream's header (the second chunk after the file header).
        var b = XDFBuilder()
        b.fileHeader()
        b.stream(1, name: "amp", type: "EEG", channels: 2, rate: 100, format: "float32", labels: ["Oz", "Pz"])
        let eegOnly = b.bytes.count
        b.stream(2, name: "cues", type: "Markers", channels: 1, rate: 0, format: "string")
        let url = try LabFixtures.scratch("cut.xdf", Array(b.bytes.prefix(eegOnly + 20)))
        let message = LabFixtures.message { _ = try XDFImporter.read(url) }
        #expect(message.hasPrefix("cut.xdf: no marker stream (no stream of string markers; streams: \"amp\" (EEG, float32)); the file ends inside chunk 3 (at byte \(eegOnly)"), "\(message)")
        #expect(message.hasSuffix("): cut short, and what followed is lost"), "\(message)")
    }

    @Test func jitterBelowTheBreakThresholdIsNoBreak() throws {
        let url = try LabFixtures.scratch("jitter.xdf", XDFBuilder.simple(stamp: { 1000 + Double($0) / 100 + ($0 % 7 == 0 ? 0.03 : 0) }))
        let r = try XDFImporter.read(url)
        #expect(r.warnings.isEmpty && abs(r.sampleRate - 100) < 0.1)
    }

    @Test func chunksStampedOnceAreSpreadNotSkips() throws {
        // 100 Hz sent in chunks of 50 samples, each sample of a chunk carrying the chunk's last sample's stamp:
        // no sample is missing (it had been refused, every trial "in a skip").
        let stamp: (Int) -> Double = { 1000 + Double($0 / 50 * 50 + 49) / 100 }
        let r = try XDFImporter.read(try LabFixtures.scratch("chunks.xdf", XDFBuilder.simple(stamp: stamp, markers: [(1001, "a"), (1003.37, "b")])))
        #expect(r.skips.isEmpty && abs(r.sampleRate - 100) < 1e-6)
        #expect(r.markers.map(\.sample) == [100, 337])
        #expect(r.warnings == ["EEG time stamps repeat: 490 of 500 samples share the stamp before them (a sender that stamps each chunk once); each stamp is taken as its chunk's last sample's, the others 100 Hz apart before it"])
        // A chunk lost is still a skip of its length.
        let lost = try XDFImporter.read(try LabFixtures.scratch("lost.xdf", XDFBuilder.simple(stamp: { stamp($0 < 200 ? $0 : $0 + 50) })))
        #expect(lost.skips.count == 1 && lost.skips[0].sample == 200 && abs(lost.skips[0].seconds - 0.5) < 1e-6)
    }

    @Test func channelUnitsAreScaledToMicrovoltsAndOtherUnitsKeptApart() throws {
        var b = XDFBuilder()
        b.fileHeader()
        b.stream(1, name: "amp", type: "EEG", channels: 3, rate: 100, format: "float32", labels: ["Oz", "", "T"], units: ["volts", "mV", "degC"])
        b.stream(2, name: "cues", type: "Markers", channels: 1, rate: 0, format: "string")
        b.samples(1, stamps: (0..<100).map { 1000 + Double($0) / 100 }, rows: (0..<100).map { _ in [1.5e-5, 0.02, 36.6] })
        b.strings(2, stamps: [1000.5], texts: ["start"])
        let r = try XDFImporter.read(try LabFixtures.scratch("units.xdf", b.bytes))
        // Volts and millivolts become µV, as EDF and BrainVision channels do; an unlabelled channel is named by its number.
        #expect(r.channelNames == ["Oz", "2", "T"])
        #expect(abs(r.samples[0][0] - 15) < 1e-4 && abs(r.samples[1][0] - 20) < 1e-4 && r.samples[2][0] == 36.6)
        #expect(r.otherUnits == ["T": "degC"])
        let kept = try r.keepingEEG(selection: nil)
        #expect(kept.channelNames == ["Oz", "2"])
    }
}
