import Foundation
import TestSupport
import Testing
@testable import LabFormats

/// MNE's BrainVision test recording (expected values from MNE 1.13.2's
/// read_raw_brainvision, in µV) and small headers the tests write.
@Suite struct BrainVisionImporterTests {
    static let fixture = LabFixtures.url("formats/brainvision/test.vhdr")

    @Test func realRecordingReadsLikeMNE() throws {
        let r = try BrainVisionImporter.read(Self.fixture)
        #expect(r.sampleRate == 1000 && r.sampleCount == 7900 && r.channelNames.count == 32)
        #expect(r.channelNames.prefix(3) == ["FP1", "FP2", "F3"] && r.channelNames.last == "ReRef")
        // INT_16 × 0.5 µV; "Ch2=FP2,,0.5," and "Ch3=F3,,0.5" (no unit) are µV too.
        #expect(r.samples[0][0] == -23.5 && r.samples[1][0] == -18 && r.samples[2][2] == -24 && r.samples[16][4000] == -9.5)
        // ReRef is in "C": value × resolution in its own unit, as MNE's native unit.
        #expect(r.samples[31][7899] == 221.5)
        #expect(r.warnings == [])
        #expect(r.otherUnits == ["CP5": "BS", "CP6": "µS", "HL": "ARU", "HR": "uS", "Vb": "S", "ReRef": "C"])
        #expect(r.markers.count == 14)
        #expect(r.markers[0] == RecordingMarker(sample: 0, seconds: 0, duration: 0.001, text: "New Segment"))
        #expect(r.markers[1] == RecordingMarker(sample: 486, seconds: 0.486, duration: 0, text: "Stimulus/S253"))
        // The same onsets and texts as MNE's annotations (which leave out "New Segment").
        #expect(r.markers.dropFirst().map(\.sample) == [486, 496, 1769, 1779, 3252, 3262, 4935, 4945, 5999, 6619, 6629, 7629, 7699])
        #expect(r.markers.dropFirst().map(\.text) == ["Stimulus/S253", "Stimulus/S255", "Event/254", "Stimulus/S255", "Event/254",
                                                      "Stimulus/S255", "Stimulus/S253", "Stimulus/S255", "Response/R255", "Event/254",
                                                      "Stimulus/S255", "SyncStatus/Sync On", "Optic/O  1"])
        #expect(r.source == "BrainVision from the Vision Recorder, test.vhdr")
    }

    @Test func trialStartRegexMatchesTheDescription() throws {
        let r = try BrainVisionImporter.read(Self.fixture)
        let start = try Regex("S253$")
        #expect(r.markers.filter { $0.text.firstMatch(of: start) != nil }.map(\.sample) == [486, 4935])
    }

    /// Writes a header (Latin-1 if asked, CRLF line ends), its data and optionally a marker file.
    static func write(_ header: String, data: [UInt8], markers: String? = nil, latin1: Bool = false) throws -> URL {
        let dir = try ScratchFolder.make()
        let crlf = header.replacingOccurrences(of: "\n", with: "\r\n")
        let bytes = latin1 ? crlf.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } : Array(crlf.utf8)
        try Data(bytes).write(to: dir.appendingPathComponent("rec.vhdr"))
        try Data(data).write(to: dir.appendingPathComponent("rec.eeg"))
        if let markers { try Data(markers.utf8).write(to: dir.appendingPathComponent("rec.vmrk")) }
        return dir.appendingPathComponent("rec.vhdr")
    }

    static func header(format: String = "BINARY", orientation: String = "MULTIPLEXED", binary: String = "INT_16",
                       channels: [String] = ["Ch1=Oz,,0.1,µV", "Ch2=P\\1z,,2,nV"], extra: String = "") -> String {
        """
        Brain Vision Data Exchange Header File Version 1.0
        ; Data created by a test

        [Common Infos]
        Codepage=ANSI
        DataFile=$b.eeg
        MarkerFile=rec.vmrk
        DataFormat=\(format)
        DataOrientation=\(orientation)
        NumberOfChannels=\(channels.count)
        SamplingInterval=4000

        [Binary Infos]
        BinaryFormat=\(binary)
        \(extra)
        [Channel Infos]
        \(channels.joined(separator: "\n"))

        [Comment]
        Ch1=not a channel
        """
    }

    static func le<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] { values.flatMap { v in withUnsafeBytes(of: v.littleEndian) { Array($0) } } }

    @Test func latin1HeaderCRLFAndUnitConversions() throws {
        let markers = "Brain Vision Data Exchange Marker File, Version 1.0\n[Marker Infos]\nMk2=Stimulus,S  1,3,1,0\nMk1=Comment,a\\1b,1,0,0\nMk3=Stimulus,bad\n"
        let url = try Self.write(Self.header(), data: Self.le([Int16(10), 1000, -20, 2000, 30, -3000]), markers: markers, latin1: true)
        let r = try BrainVisionImporter.read(url)
        #expect(r.sampleRate == 250 && r.channelNames == ["Oz", "P,z"])
        #expect(r.samples[0] == [1, -2, 3] && r.samples[1] == [2, 4, -6])  // 0.1 µV and 2 nV steps
        #expect(r.markers == [RecordingMarker(sample: 0, seconds: 0, duration: 0, text: "Comment/a,b"),
                              RecordingMarker(sample: 2, seconds: 0.008, duration: 0.004, text: "Stimulus/S  1")])
        #expect(r.warnings == ["rec.vmrk: 1 marker(s) without a readable position left out: Mk3"])
        #expect(r.source == "BrainVision from a test, rec.vhdr")
    }

    @Test func vectorizedFloatAndInt32() throws {
        let floats = [Float(1.5), 2.5, -1, 0.25].flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        let url = try Self.write(Self.header(orientation: "VECTORIZED", binary: "IEEE_FLOAT_32", channels: ["Ch1=A,,1,mV", "Ch2=B,,,V"]),
                                 data: floats, markers: "")
        let r = try BrainVisionImporter.read(url)
        #expect(r.samples == [[1500, 2500], [-1e6, 250_000]])
        let ints = try Self.write(Self.header(binary: "INT_32", extra: "UseBigEndianOrder=NO"), data: Self.le([Int32(-70000), 5]), markers: "")
        #expect(try BrainVisionImporter.read(ints).samples == [[-7000], [0.01]])
    }

    @Test func floatNaNsAreRepairedAndADeadChannelLeftOut() throws {
        // Three channels, four samples, multiplexed: A has a NaN at sample 1, B is NaN throughout, C is clean.
        let rows: [[Float]] = [[1, .nan, 5], [2, .nan, 6], [3, .nan, 7], [4, .nan, 8]]
        let data = rows.flatMap { $0 }.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        let url = try Self.write(Self.header(binary: "IEEE_FLOAT_32", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV", "Ch3=C,,1,µV"]), data: data, markers: "")
        let r = try BrainVisionImporter.read(url)
        #expect(r.channelNames == ["A", "C"] && r.samples == [[1, 2, 3, 4], [5, 6, 7, 8]])
        #expect(r.warnings == ["channel B holds no finite sample (all 4 are NaN or infinite): left out"])
        // 40 samples, A's second NaN: 1 in 40 is few enough to draw in.
        let holed: [[Float]] = (0..<40).map { [$0 == 1 ? .nan : Float($0 + 1), 0] }
        let repaired = try BrainVisionImporter.read(try Self.write(Self.header(binary: "IEEE_FLOAT_32", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV"]),
                                                                   data: holed.flatMap { $0 }.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }, markers: ""))
        #expect(Array(repaired.samples[0].prefix(3)) == [1, 2, 3])
        #expect(repaired.warnings.first?.hasPrefix("channel A: 1 NaN or infinite sample(s), the first at sample 1 (0.004 s)") == true)
    }

    @Test func channelsNotInAVoltageUnitAreLeftOutUnlessChosen() throws {
        let r = try BrainVisionImporter.read(Self.fixture)
        let eeg = try r.keepingEEG(selection: nil)
        #expect(eeg.channelNames.count == 26 && !eeg.channelNames.contains("CP5") && eeg.samples.count == 26)
        #expect(eeg.warnings.last == "6 channel(s) not in a voltage unit left out: CP5 (BS), CP6 (µS), HL (ARU), HR (uS), Vb (S), ReRef (C) (name them in --channels to keep them)")
        let chosen = try r.keepingEEG(selection: .keep(["fp1", "Fz", "CP6"]))
        #expect(chosen.channelNames.count == 32, "the selection itself is applied to the dataset")
        #expect(chosen.warnings.last == "1 channel(s) not in a voltage unit kept in their own, as chosen: CP6 (µS)")
        #expect(try r.keepingEEG(selection: .keep(["FP1", "Fz"])).warnings == [], "no word about channels the selection leaves out")
    }

    @Test func aRecordingWhoseVoltageChannelsAreAllDeadIsNoEEG() throws {
        // A and B (µV) NaN throughout; C is skin conductance (µS).
        let rows: [[Float]] = (0..<40).map { [.nan, .nan, Float($0)] }
        let url = try Self.write(Self.header(binary: "IEEE_FLOAT_32", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV", "Ch3=C,,1,µS"]),
                                 data: rows.flatMap { $0 }.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }, markers: "")
        let r = try BrainVisionImporter.read(url)
        #expect(r.channelNames == ["C"])
        let message = LabFixtures.message { _ = try r.keepingEEG(selection: nil) }
        #expect(message.hasSuffix("no EEG channel is left: the voltage channels were left out (A, B) and the rest are not in a voltage unit (C (µS)); name channels with --channels to import them anyway"), "\(message)")
        #expect(try r.keepingEEG(selection: .keep(["C"])).channelNames == ["C"])
    }

    @Test func aChannelWithNaNInEveryOtherSampleIsLeftOutNotMadeUp() throws {
        // A: NaN in every other sample (half of it would be interpolated); B: clean.
        let rows: [[Float]] = (0..<40).map { [$0 % 2 == 1 ? .nan : Float($0), Float($0)] }
        let bytes = rows.flatMap { $0 }.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        let r = try BrainVisionImporter.read(try Self.write(Self.header(binary: "IEEE_FLOAT_32", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV"]),
                                                            data: bytes, markers: ""))
        #expect(r.channelNames == ["B"])
        #expect(r.warnings == ["channel A: 20 of 40 samples NaN or infinite between finite ones (more than 5 %, too many to interpolate): left out"])
        // Both so: nothing is left to import, and the file is named.
        let both = (0..<40).map { k -> [Float] in k % 2 == 1 ? [.nan, .nan] : [Float(k), Float(k)] }
        let url = try Self.write(Self.header(binary: "IEEE_FLOAT_32", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV"]),
                                 data: both.flatMap { $0 }.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }, markers: "")
        #expect(LabFixtures.message { _ = try BrainVisionImporter.read(url) }.hasSuffix(": no channel is left: each is NaN or infinite throughout or in more than 5 % of its samples"))
    }

    @Test func asciiDataWithDecimalComma() throws {
        let dir = try ScratchFolder.make()
        let header = Self.header(format: "ASCII", extra: "[ASCII Infos]\nDecimalSymbol=,\nSkipLines=1\nSkipColumns=0")
        try Data(header.utf8).write(to: dir.appendingPathComponent("rec.vhdr"))
        try Data("Oz P,z\n1,5 10\n-2 20\n\n".utf8).write(to: dir.appendingPathComponent("rec.eeg"))
        try Data("[Marker Infos]\n".utf8).write(to: dir.appendingPathComponent("rec.vmrk"))
        let r = try BrainVisionImporter.read(dir.appendingPathComponent("rec.vhdr"))
        #expect(r.samples[0] == [0.15, -0.2] && r.samples[1] == [0.02, 0.04])
        try Data("Oz P,z\n1,5 x\n".utf8).write(to: dir.appendingPathComponent("rec.eeg"))
        #expect(ScratchFolder.message { _ = try BrainVisionImporter.read(dir.appendingPathComponent("rec.vhdr")) }
                == "rec.eeg: line 2: \"x\" is not a number")
    }

    @Test func missingMarkerFileIsAWarning() throws {
        let url = try Self.write(Self.header(), data: Self.le([Int16(1), 2]))
        let r = try BrainVisionImporter.read(url)
        #expect(r.markers.isEmpty && r.warnings.count == 1)
        #expect(r.warnings.first?.hasPrefix("rec.vhdr: its marker file rec.vmrk is missing (looked for /") == true)
        #expect(r.warnings.first?.hasSuffix("/rec.vmrk); no markers") == true)
    }

    @Test func malformedHeadersAreOneLineErrors() throws {
        let url = try Self.write(Self.header(), data: Self.le([Int16(1), 2]), markers: "")
        try FileManager.default.removeItem(at: url.deletingLastPathComponent().appendingPathComponent("rec.eeg"))
        #expect(ScratchFolder.message { _ = try BrainVisionImporter.read(url) }.hasPrefix("rec.vhdr: its data file rec.eeg is missing"))
        func message(_ header: String, data: [UInt8] = Self.le([Int16(1), 2])) throws -> String {
            let url = try Self.write(header, data: data, markers: "")
            return ScratchFolder.message { _ = try BrainVisionImporter.read(url) }
        }
        #expect(try message(Self.header(format: "MATLAB")) == "rec.vhdr: DataFormat=MATLAB is not supported (BINARY or ASCII)")
        #expect(try message(Self.header(binary: "INT_12")).hasPrefix("rec.eeg: BinaryFormat=INT_12 is not supported"))
        #expect(try message(Self.header(channels: ["Ch1=Oz,,0.1,µV", "Ch2=Pz,,lots,µV"])) == "rec.vhdr: Ch2 (Pz): resolution is not a number: \"lots\"")
        #expect(try message(Self.header(channels: ["Ch1=Oz,,0.1,µV", "Ch3=Pz"])) == "rec.vhdr: [Channel Infos] has no Ch2 for channel 2 of 2")
        #expect(try message(Self.header().replacingOccurrences(of: "SamplingInterval=4000", with: "SamplingInterval=fast"))
                == "rec.vhdr: SamplingInterval (µs) is not a positive number: \"fast\"")
        #expect(try message(Self.header(), data: [1, 2, 3]) == "rec.eeg: holds no complete sample (3 bytes, 4 per sample of 2 channels)")
        #expect(try message("hello\nworld") == "rec.vhdr: not a BrainVision header (first line \"hello\")")
    }

    @Test func partialLastSampleIsAWarning() throws {
        let url = try Self.write(Self.header(), data: Self.le([Int16(1), 2, 3]), markers: "")
        let r = try BrainVisionImporter.read(url)
        #expect(r.sampleCount == 1 && r.warnings == ["rec.eeg: 2 bytes after the last whole sample ignored (INT_16, 2 channels)"])
    }

    @Test func dataPointsDisagreeingWithTheFileIsSaid() throws {
        // Two channels, vectorized: A = 1 2 3 4, B = 5 6 7 8, cut to 3 samples' worth of bytes.
        let whole = Self.le([Int16(1), 2, 3, 4, 5, 6, 7, 8])
        let cut = try Self.write(Self.header(orientation: "VECTORIZED", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV"])
                                    .replacingOccurrences(of: "SamplingInterval=4000", with: "SamplingInterval=4000\nDataPoints=4"),
                                 data: Array(whole.prefix(12)), markers: "")
        // Read as 3 samples a channel, B would start at A's fourth sample: refused.
        #expect(ScratchFolder.message { _ = try BrainVisionImporter.read(cut) }
                == "rec.eeg: holds 3 samples of 2 channels (12 bytes of INT_16), the header's DataPoints says 4: cut short, and a VECTORIZED file cut short cannot be read (every channel's block after the first would start in the wrong place)")
        // Multiplexed, a cut loses only the end: read, with a warning.
        let multiplexed = try Self.write(Self.header(channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV"])
                                            .replacingOccurrences(of: "SamplingInterval=4000", with: "SamplingInterval=4000\nDataPoints=4"),
                                         data: Array(whole.prefix(12)), markers: "")
        let r = try BrainVisionImporter.read(multiplexed)
        #expect(r.samples == [[1, 3, 5], [2, 4, 6]])
        #expect(r.warnings == ["rec.eeg: holds 3 samples of 2 channels (12 bytes of INT_16), the header's DataPoints says 4: cut short? the 3 read"])
        // Vectorized with DataPoints below the file: each block is DataPoints long.
        let longer = try Self.write(Self.header(orientation: "VECTORIZED", channels: ["Ch1=A,,1,µV", "Ch2=B,,1,µV"])
                                        .replacingOccurrences(of: "SamplingInterval=4000", with: "SamplingInterval=4000\nDataPoints=3"),
                                    data: Self.le([Int16(1), 2, 3, 5, 6, 7, 9, 9]), markers: "")
        #expect(try BrainVisionImporter.read(longer).samples == [[1, 2, 3], [5, 6, 7]])
    }

    @Test func aDataFileNamedByAPathElsewhereIsFoundOrNamed() throws {
        let url = try Self.write(Self.header(), data: Self.le([Int16(1), 2]), markers: "")
        let dir = url.deletingLastPathComponent()
        // An absolute path is read as written.
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data(Self.le([Int16(7), 8])).write(to: sub.appendingPathComponent("elsewhere.eeg"))
        try Data(Self.header().replacingOccurrences(of: "DataFile=$b.eeg", with: "DataFile=\(sub.path)/elsewhere.eeg").utf8).write(to: url)
        #expect(try BrainVisionImporter.read(url).samples == [[0.7], [0.016]])
        // A path from another machine (Windows): the file of that name beside the header, with a warning.
        try Data(Self.header().replacingOccurrences(of: "DataFile=$b.eeg", with: "DataFile=C:\\Data\\rec.eeg").utf8).write(to: url)
        let moved = try BrainVisionImporter.read(url)
        #expect(moved.samples == [[0.1], [0.004]] && moved.warnings == ["rec.vhdr: C:\\Data\\rec.eeg is not there; read rec.eeg beside the header"])
        // Neither there: the message names the path as written and where it looked.
        try Data(Self.header().replacingOccurrences(of: "DataFile=$b.eeg", with: "DataFile=/nowhere/gone.eeg").utf8).write(to: url)
        #expect(ScratchFolder.message { _ = try BrainVisionImporter.read(url) } == "rec.vhdr: its data file /nowhere/gone.eeg is missing (looked for /nowhere/gone.eeg)")
    }

    @Test func twoMarkersNumberedAlikeAreBothKept() throws {
        let markers = "Brain Vision Data Exchange Marker File, Version 1.0\n[Marker Infos]\nMk1=Stimulus,S  1,1,1,0\nMk2=Stimulus,S  2,2,1,0\nMk2=Stimulus,S  3,3,1,0\n"
        let r = try BrainVisionImporter.read(try Self.write(Self.header(), data: Self.le([Int16(1), 2, 3, 4, 5, 6]), markers: markers))
        #expect(r.markers.map(\.text) == ["Stimulus/S  1", "Stimulus/S  2", "Stimulus/S  3"])
        #expect(r.warnings == ["rec.vmrk: marker number(s) written twice, both markers kept: Mk2"])
    }
}
