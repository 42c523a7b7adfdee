import Foundation
import TestSupport
import Testing
@testable import LabFormats

@Suite struct SavefileImporterTests {
    @Test func theExampleSessionGivesTenCalibrationTrials() throws {
        let (d, warnings) = try SavefileImporter.readWithWarnings(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        #expect(d.header.nTrials == 10 && d.header.nClasses == 9 && d.header.nChannels == 4)
        #expect(abs(d.header.fs - 200) < 0.5)
        #expect(d.header.nSamples == 839)  // 4.195 s: first to last STIMULUSEVENT
        #expect(d.header.nContinuous == 44406)  // 44410 in the packets, less the cut last line's 4
        #expect(d.labels == [1, 6, 8, 4, 7, 0, 2, 4, 8, 4])  // objects 2, 7, 9, 5, 8, 1, 3, 5, 9, 5
        #expect(warnings.contains { $0.contains("swapped") })
        #expect(warnings.contains { $0.hasPrefix("1 cut or unreadable") })
    }

    func savefile(_ lines: [String]) throws -> URL { try LabFixtures.scratch("s.txt", Array(lines.joined(separator: "\n").utf8)) }

    /// A tiny session: 2 channels at 100 Hz (one packet of 10 samples every
    /// 100 ms, stamps near the 32-bit wrap) and two calibration trials.
    func tinySession() -> [String] {
        var lines = ["rts:1 sts:2147483000 t:DATAHEADER ts:1 fs100.0 ch[2]: <-/1:1"]
        var stamp = Int64(2147483000)
        func wrapped(_ s: Int64) -> Int64 { s >= 1 << 31 ? s - (1 << 32) : s }
        var emitted = 0
        func packet() {
            stamp += 100
            let samples = (0..<10).map { i in "[\(Float(emitted + i)),\(Float(-emitted - i)),]" }.joined()
            lines.append("rts:1 sts:\(wrapped(stamp)) t:DATAPACKET ts:9 v[2x10]:\(samples) <-/1:2")
            emitted += 10
        }
        for _ in 0..<5 { packet() }
        lines.append("rts:1 sts:\(wrapped(stamp)) t:MODECHANGE ts:9 mode:Calibration.supervised <-/1:3")
        for target in [2, 1] {
            lines.append("rts:1 sts:\(wrapped(stamp)) t:NEWTARGET ts:9 <-/1:3")
            for frame in 0..<12 {
                let one = frame % 2, two = frame / 2 % 2
                let cue = target == 1 ? one : two
                lines.append("rts:1 sts:\(wrapped(stamp + Int64(frame * 50))) t:STIMULUSEVENT ts:9 v[3]:{1,\(one)}{2,\(two)}{0,\(cue)} <-/1:3")
            }
            for _ in 0..<8 { packet() }
        }
        lines.append("rts:1 sts:\(wrapped(stamp)) t:MODECHANGE ts:9 mode:idle <-/1:3")
        for _ in 0..<3 { packet() }
        return lines
    }

    @Test func aTinySessionAcrossTheStampWrapIsCut() throws {
        let d = try SavefileImporter.read(try savefile(tinySession()))
        #expect(d.header.nTrials == 2 && d.header.nClasses == 2 && d.labels == [1, 0])
        #expect(abs(d.header.fs - 100) < 1e-6 && d.header.nSamples == 55)
        // Object 1 toggles every 50 ms = 5 samples.
        #expect(Array(d.stimulus(ofClass: 0).prefix(11)) == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0])
        #expect(d.trial(0)[1][0] == -Double(d.context?.onsets[0] ?? 0))
    }

    @Test func aDeadChannelIsLeftOutAndTheOthersKeepTheirNumbers() throws {
        // Channel 1 streams NaN throughout (written as the hub logs it): channel 2 remains, named "2".
        let lines = tinySession().map { line in
            line.contains("t:DATAPACKET") ? line.replacingOccurrences(of: #"\[[-0-9.]+,"#, with: "[nan,", options: .regularExpression) : line
        }
        let (d, warnings) = try SavefileImporter.readWithWarnings(try savefile(lines))
        #expect(d.header.nChannels == 1 && d.header.channels == ["2"])
        #expect(d.trial(0)[0][0] == -Double(d.context?.onsets[0] ?? 0))
        #expect(warnings.contains { $0.hasPrefix("channel 1 holds no finite sample (all ") && $0.hasSuffix("are NaN or infinite): left out") })
    }

    @Test func aTrialOverSamplesMissingForLongerThanADropoutIsLeftOut() throws {
        // The 8th packet (0.1 s, 10 samples: inside the first trial) lost on both channels, and one more sample:
        // 11 samples at 100 Hz, longer than a dropout.
        var packets = 0
        let lines = tinySession().map { line -> String in
            guard line.contains("t:DATAPACKET") else { return line }
            packets += 1
            guard packets == 8 || packets == 9 else { return line }
            return packets == 8 ? line.replacingOccurrences(of: #"\[[-0-9.]+,[-0-9.]+,\]"#, with: "[nan,nan,]", options: .regularExpression)
                : line.replacingOccurrences(of: #"v\[2x10\]:\[[-0-9.]+,[-0-9.]+,\]"#, with: "v[2x10]:[nan,nan,]", options: .regularExpression)
        }
        let (d, warnings) = try SavefileImporter.readWithWarnings(try savefile(lines))
        #expect(d.header.nTrials == 1 && d.labels == [0])
        #expect(warnings.contains { $0.hasPrefix("trial 1 (at ") && $0.contains(" overlaps samples missing for longer than 0.100 s") }, "\(warnings)")
    }

    @Test func badFilesAreOneLine() throws {
        let gz = try LabFixtures.scratch("s.txt.gz", [0x1F, 0x8B, 8, 0])
        #expect(LabFixtures.message { _ = try SavefileImporter.read(gz) } == "s.txt.gz: gzip-compressed: gunzip it first")
        let text = try savefile(["hello", "world"])
        #expect(LabFixtures.message { _ = try SavefileImporter.read(text) }.hasPrefix("s.txt: not a MindAffect savefile"))
        let noTrials = try savefile(Array(tinySession().filter { !$0.contains("NEWTARGET") }))
        #expect(LabFixtures.message { _ = try SavefileImporter.read(noTrials) }.hasPrefix("s.txt: no calibration trial"))
        let noData = try savefile(Array(tinySession().filter { !$0.contains("DATAPACKET") }))
        #expect(LabFixtures.message { _ = try SavefileImporter.read(noData) } == "s.txt: no DATAPACKET: the file holds no EEG")
    }
}
