import Foundation
import Testing
@testable import Decoding

@Suite struct ContinuousContextTests {
    /// Two channels, 2,000 samples at 250 Hz: a 10 Hz wave on a large, drifting offset; trials at 300 and 1,200.
    func dataset(setting spike: (index: Int, value: Float)? = nil) throws -> TrialsDataset {
        let n = 2000
        var samples: [Float] = []
        for c in 0..<2 {
            for i in 0..<n {
                let t = Double(i) / 250
                let wave: Double = 20 * sin(2 * Double.pi * 10 * t + Double(c))
                samples.append(Float(5000 + 125 * t + wave))
            }
        }
        if let spike { samples[spike.index] = spike.value }
        let header = DatasetHeader(fs: 250, nTrials: 2, nChannels: 2, nSamples: 500, nClasses: 2)
        let v = [UInt8](repeating: 0, count: 500) + [UInt8](repeating: 1, count: 500)
        return try TrialsDataset(header: header, continuous: samples, length: n, onsets: [300, 1200], labels: [0, 1], stimulus: v)
    }

    @Test func aSampleNoAmplifierRecordsIsRefusedRatherThanFilteredIntoTheTrialsAfterIt() throws {
        // Between the trials, on channel 1: the continuous filters would carry 1e30 into the second trial.
        do {
            _ = try dataset(setting: (2000 + 800, 1e30))
            Issue.record("1e30 accepted")
        } catch let error as DatasetError {
            #expect("\(error)".hasPrefix("continuous.f32: value 2800 (channel 1, sample 800) is 1e+30, over 1000000 times the channel's median magnitude ("),
                    "\(error)")
        }
        // An artifact a real amplifier records (a pop of 100 times the offset) is EEG, kept.
        #expect(try dataset(setting: (2000 + 800, 5e5)).context?.samples[2800] == 5e5)
    }

    @Test func trialsAreCutFromTheContinuousRecording() throws {
        let d = try dataset()
        #expect(d.header.nContinuous == 2000)
        #expect(d.trial(1)[1][0] == Double(d.context!.samples[2000 + 1200]))
    }

    @Test func preprocessingRunsOnTheContinuousSignalNotTheCutTrial() throws {
        let d = try dataset()
        let pre = Preprocessor(sampleRate: 250, channels: 2)
        let continuous = pre.apply(toTrial: (0..<2).map(d.context!.channel))
        let trials = d.preprocessedTrials(pre)
        #expect(trials[1][0] == Array(continuous[0][1200..<1700]))
        // Cut first and filtered on its own, the trial carries the filter's start-up; from the continuous signal it does not.
        let alone = pre.apply(toTrial: d.trial(1))
        let startUp = zip(alone[0].prefix(50), trials[1][0].prefix(50)).map { abs($0 - $1) }.max()!
        #expect(startUp > 1)
    }

    @Test func theContextSurvivesWritingAndReading() throws {
        let d = try dataset()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("context-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try d.write(to: folder)
        #expect(try TrialsDataset.read(from: folder) == d)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("onsets.i32"))
        #expect(throws: DatasetError.missingFile("onsets.i32")) { try TrialsDataset.read(from: folder) }
    }

    @Test func trialsEditedApartFromTheContinuousRecordingAreRefused() throws {
        let d = try dataset()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("context-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try d.write(to: folder)
        // A researcher re-references X.f32 in Python and leaves continuous.f32 as it was: the filters would read the old signal.
        var x = d.data
        x[500 + 17] += 1
        try Data(x.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }).write(to: folder.appendingPathComponent("X.f32"))
        #expect(throws: DatasetError.self) { try TrialsDataset.read(from: folder) }
        do { _ = try TrialsDataset.read(from: folder) } catch {
            #expect("\(error)".hasPrefix("X.f32: trial 0, channel 1, sample 17 differs from continuous.f32 at onset 300 + 17"))
        }
        // Without the continuous recording, the edited trials are the dataset.
        for name in ["continuous.f32", "onsets.i32"] { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let header = folder.appendingPathComponent("header.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: header)) as! [String: Any]
        json["n_continuous"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: header)
        #expect(try TrialsDataset.read(from: folder).data == x)
    }

    @Test func anOnsetPastTheRecordingIsOneLine() {
        let header = DatasetHeader(fs: 250, nTrials: 1, nChannels: 1, nSamples: 100, nClasses: 1)
        #expect(throws: DatasetError.inconsistent(file: "onsets.i32", reason: "trial 0 starts at sample 950: its 100 samples do not fit in the 1000 of continuous.f32")) {
            try TrialsDataset(header: header, continuous: [Float](repeating: 0, count: 1000), length: 1000, onsets: [950],
                              labels: [0], stimulus: [UInt8](repeating: 0, count: 100))
        }
    }
}

@Suite struct DecimationTests {
    @Test func aFastRecordingIsDecodedAtMost256HzWithItsTrialsAndCodesAligned() throws {
        // 1024 Hz, one channel of a 10 Hz wave on an offset, trials at 1000 and 3001.
        let n = 8192
        let samples = (0..<n).map { Float(300 + 10 * sin(2 * Double.pi * 10 * Double($0) / 1024)) }
        let v = (0..<2).flatMap { k in (0..<2048).map { UInt8(($0 / 64 + k) % 2) } }
        let d = try TrialsDataset(header: DatasetHeader(fs: 1024, nTrials: 2, nChannels: 1, nSamples: 2048, nClasses: 2),
                                  continuous: samples, length: n, onsets: [1000, 3001], labels: [0, 1], stimulus: v)
        let down = try d.decimated(toAtMost: 256)
        #expect(down.header.fs == 256 && down.header.nSamples == 512 && down.header.nContinuous == 2048)
        #expect(down.context?.onsets == [250, 751])           // the first kept sample at or after each onset
        #expect(down.stimulus(ofClass: 1).prefix(17) == ArraySlice([UInt8](repeating: 1, count: 16) + [0]))
        // No start-up transient from the offset, and the 10 Hz wave passes the anti-alias filter.
        let x = down.context!.channel(0)
        #expect(abs(x[0] - 300) < 0.5)
        #expect((x[1000..<1500].max() ?? 0) > 309 && (x[1000..<1500].min() ?? 0) < 291)
        #expect(try d.decimated(toAtMost: 2048) == d)
    }
}
