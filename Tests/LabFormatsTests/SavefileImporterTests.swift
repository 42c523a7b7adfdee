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

    @Test func packetsStoppedForAnHourAreRefusedNotFilled() throws {
        // Every stamp after the 5th packet an hour later: 360,000 samples a channel to fill. The message says where.
        var packets = 0
        let lines = tinySession().map { line -> String in
            if line.contains("t:DATAPACKET") { packets += 1 }
            guard packets > 5 || (packets == 5 && !line.contains("t:DATAPACKET")),
                  let stamp = line.firstMatch(of: #/sts:(-?\d+)/#).map({ Int64($0.1)! }) else { return line }
            let later = stamp + 3_600_000
            return line.replacing(#/sts:-?\d+/#, with: "sts:\(later >= 1 << 31 ? later - (1 << 32) : later)")
        }
        #expect(LabFixtures.message { _ = try SavefileImporter.read(try savefile(lines)) }
                == "s.txt: no DATAPACKET for 3600.1 s after 0.400 s: more than 600 s of EEG missing; split the file there and import each part")
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

@Suite struct SavefileGapTests {
    /// The example session with 50 DATAPACKET lines (about 1.1 s) cut from
    /// inside its third calibration trial, as a dropped connection loses them.
    func sessionWithPacketsLost() throws -> URL {
        let text = try String(contentsOf: LabFixtures.url("mindaffectBCI_exampledata.txt"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let third = lines.indices.filter { lines[$0].contains("t:NEWTARGET") }[2]
        let packets = lines.indices.filter { $0 > third && lines[$0].contains("t:DATAPACKET") }
        for index in packets[40..<90].reversed() { lines.remove(at: index) }
        return try LabFixtures.scratch("lost.txt", Array(lines.joined(separator: "\n").utf8))
    }

    @Test func packetsLostMidSessionLeaveOutTheirTrialAndEveryOtherTrialKeepsItsSamples() throws {
        let (intact, _) = try SavefileImporter.readWithWarnings(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        let (cut, warnings) = try SavefileImporter.readWithWarnings(try sessionWithPacketsLost())
        #expect(cut.header.nTrials == 9)
        var expected = intact.labels
        expected.remove(at: 2)
        #expect(cut.labels == expected)
        #expect(abs(cut.header.fs - intact.header.fs) < 0.01, "the rate is fitted as without the loss")
        #expect(warnings.contains { $0.hasPrefix("DATAPACKETs missing (1.1") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("trial 3 (at ") && $0.contains("DATAPACKETs lost") }, "\(warnings)")
        #expect(!warnings.contains { $0.hasPrefix("channel ") }, "the filled samples are not reported as NaN in the file")
        // Every kept trial, before the loss and after it, holds the samples it holds in the intact session.
        for (t, original) in [0, 1, 3, 4, 5, 6, 7, 8, 9].enumerated() {
            #expect(cut.trial(t) == intact.trial(original), "trial \(original + 1)")
        }
    }

    @Test func packetsLostBetweenTrialsMoveNoTrial() throws {
        // 1.5 s of packets (samples 14350–14649, in the pause after the fifth
        // trial) lost: the clock is fitted on both sides of the loss, so no
        // trial moves by a sample, before it or after it.
        let text = try String(contentsOf: LabFixtures.url("mindaffectBCI_exampledata.txt"), encoding: .utf8)
        var kept: [Substring] = [], sample = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.contains("t:DATAPACKET"), let count = line.firstMatch(of: #/v\[(\d+)x(\d+)\]/#).flatMap({ Int($0.2) }) else {
                kept.append(line); continue
            }
            if !(14350..<14650).contains(sample) { kept.append(line) }
            sample += count
        }
        let (intact, _) = try SavefileImporter.readWithWarnings(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        let (cut, warnings) = try SavefileImporter.readWithWarnings(try LabFixtures.scratch("pause.txt", Array(kept.joined(separator: "\n").utf8)))
        #expect(warnings.contains { $0.hasPrefix("DATAPACKETs missing (1.4") || $0.hasPrefix("DATAPACKETs missing (1.5") }, "\(warnings)")
        #expect(cut.header.nTrials == 10)
        for t in 0..<10 {
            let same = cut.trial(t) == intact.trial(t)
            #expect(same, "trial \(t + 1) moved: onset \(cut.context?.onsets[t] ?? -1) against \(intact.context?.onsets[t] ?? -1) in the intact session")
        }
    }

    @Test func aSavefileWithWindowsLineEndsReadsAsTheOriginal() throws {
        let text = try String(contentsOf: LabFixtures.url("mindaffectBCI_exampledata.txt"), encoding: .utf8)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        let (intact, _) = try SavefileImporter.readWithWarnings(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        let (read, _) = try SavefileImporter.readWithWarnings(try LabFixtures.scratch("crlf.txt", Array(crlf.utf8)))
        #expect(read.header.nTrials == 10)
        #expect(read.labels == intact.labels)
        let same = read.trial(9) == intact.trial(9)
        #expect(same)
    }

    @Test func aBurstThatCatchesUpIsNoLoss() throws {
        // Packets 30–45 held back 0.4 s, then delivered at once: the samples are all there.
        let text = try String(contentsOf: LabFixtures.url("mindaffectBCI_exampledata.txt"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let packets = lines.indices.filter { lines[$0].contains("t:DATAPACKET") }
        let release = lines[packets[3046]].firstMatch(of: #/sts:(-?\d+)/#).map { Int64($0.1)! }!
        for index in packets[3030..<3046] {
            lines[index] = lines[index].replacing(#/sts:-?\d+/#, with: "sts:\(release)")
        }
        let (d, warnings) = try SavefileImporter.readWithWarnings(try LabFixtures.scratch("burst.txt", Array(lines.joined(separator: "\n").utf8)))
        #expect(d.header.nTrials == 10)
        #expect(!warnings.contains { $0.hasPrefix("DATAPACKETs missing") }, "\(warnings)")
    }

    @Test func linesOfNoMessageTypeAreCountedNotDroppedInSilence() throws {
        let text = try String(contentsOf: LabFixtures.url("mindaffectBCI_exampledata.txt"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let packet = lines.firstIndex { $0.contains("t:DATAPACKET") }!
        lines[packet + 1] = lines[packet + 1].replacingOccurrences(of: "t:DATAPACKET", with: "t:DATAPACKEX")
        lines.insert("garbage from an editor", at: packet + 2)
        let (_, warnings) = try SavefileImporter.readWithWarnings(try LabFixtures.scratch("odd.txt", Array(lines.joined(separator: "\n").utf8)))
        #expect(warnings.contains { $0.hasPrefix("1 line(s) of no Utopia message type ignored: DATAPACKEX (line \(packet + 2))") }, "\(warnings)")
        #expect(warnings.contains { $0 == "1 line(s) that are no savefile message ignored (line \(packet + 3))" }, "\(warnings)")
    }

    @Test func aLostOrRepeatedStimulusEventLineKeepsEveryClass() throws {
        // A STIMULUSEVENT line lost or written twice shifts every later frame of its trial by one:
        // the trial still shows its class's code, not a new class (it had made 18 classes of 9).
        let text = try String(contentsOf: LabFixtures.url("mindaffectBCI_exampledata.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let events = lines.indices.filter { lines[$0].contains("t:STIMULUSEVENT") }
        let (intact, _) = try SavefileImporter.readWithWarnings(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        var lost = lines, twice = lines, cut = lines
        lost.remove(at: events[100])
        twice.insert(lines[events[100]], at: events[100])
        // Twelve lines cut in half across the session: each trial loses a frame or two.
        for k in stride(from: 60, to: events.count, by: events.count / 12).prefix(12) { cut[events[k]] = String(lines[events[k]].prefix(40)) }
        for (name, edited) in [("lost", lost), ("twice", twice), ("cut", cut)] {
            let (d, _) = try SavefileImporter.readWithWarnings(try LabFixtures.scratch("\(name).txt", Array(edited.joined(separator: "\n").utf8)))
            #expect(d.header.nClasses == 9 && d.labels == intact.labels, "\(name): \(d.header.nClasses) classes, labels \(d.labels)")
        }
    }

    @Test func codesThatDifferMoreThanALostFrameAreTwoClasses() {
        let code: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: (UInt32($0) &* 2_654_435_761) >> 13) & 1 }
        var classes = StimulusClasses(frames: 200)
        #expect(classes.classify(code) == 0)
        #expect(classes.classify(Array(code.dropFirst(60)) + Array(repeating: 0, count: 60)) == 1)  // another phase: another code
        #expect(classes.classify(Array(code[..<90]) + Array(code[91...]) + [0]) == 0)  // one frame lost
        #expect(classes.classify(Array(code[..<90]) + [code[90]] + Array(code[90...])) == 0)  // one frame twice
        var flipped = code
        for i in stride(from: 5, to: 200, by: 20) { flipped[i] ^= 1 }  // ten flips, 5 %: beyond 2 %
        #expect(classes.classify(flipped) == 2)
        // An m-sequence codebook's neighbour, the same code two frames on: another class, not a lost frame.
        #expect(classes.classify(Array(code.dropFirst(2)) + [0, 0]) == 3)
        #expect(StimulusClasses.editDistance([1, 0, 1, 1], [1, 1, 1, 1], atMost: 3) == 1)
        #expect(StimulusClasses.editDistance([], [], atMost: 0) == 0)
    }
}
