import Foundation
import Simulation
import Testing
@testable import Decoding

/// The dataset folder of Protocols/dataset.md: round trip, and one clear error per broken file.
@Suite struct TrialsDatasetTests {
    static func smallDataset() throws -> TrialsDataset {
        var simulation = DatasetSimulation(classes: 3, trials: 4, seed: 1)
        simulation.trialDuration = 0.5
        simulation.gapDuration = 0.2
        return try simulation.record()
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("dataset-\(UUID().uuidString)")
    }

    static func written() throws -> URL {
        let url = folder()
        try smallDataset().write(to: url)
        return url
    }

    @Test func writtenFolderReadsBackEqual() throws {
        let dataset = try Self.smallDataset()
        let url = Self.folder()
        defer { try? FileManager.default.removeItem(at: url) }
        try dataset.write(to: url)
        #expect(try TrialsDataset.read(from: url) == dataset)
        let header = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("header.json"))) as? [String: Any]
        #expect(header?["n_trials"] as? Int == 4)
        #expect(header?["n_samples"] as? Int == 125)
        #expect(try Data(contentsOf: url.appendingPathComponent("X.f32")).count == 4 * 8 * 125 * 4)
    }

    @Test func aMissingFolderOrAFileIsNamed() throws {
        let url = Self.folder()
        #expect(throws: DatasetError.unreadable(file: url.path, reason: "no such folder")) { try TrialsDataset.read(from: url) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString).npz")
        try Data([0x50, 0x4B]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: DatasetError.unreadable(file: file.path, reason: "a file, not a trials dataset folder (a recording is read with noisetag dataset import FILE --out DIR first)")) {
            try TrialsDataset.read(from: file)
        }
    }

    @Test(arguments: ["header.json", "X.f32", "y.i32", "V.u8"])
    func missingFileIsNamed(_ name: String) throws {
        let url = try Self.written()
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.removeItem(at: url.appendingPathComponent(name))
        #expect(throws: DatasetError.missingFile(name)) { try TrialsDataset.read(from: url) }
    }

    static func expectError(file: String, containing text: String, after damage: (URL) throws -> Void) throws {
        let url = try written()
        defer { try? FileManager.default.removeItem(at: url) }
        try damage(url)
        do {
            _ = try TrialsDataset.read(from: url)
            Issue.record("a damaged \(file) was accepted")
        } catch let error as DatasetError {
            #expect(error.file == file)
            #expect("\(error)".hasPrefix("\(file): "))
            #expect("\(error)".contains(text), "\(error)")
        }
    }

    @Test func truncatedSamplesNameTheSizes() throws {
        try Self.expectError(file: "X.f32", containing: "expected 16000 bytes") { url in
            let x = try Data(contentsOf: url.appendingPathComponent("X.f32"))
            try x.prefix(x.count - 8).write(to: url.appendingPathComponent("X.f32"))
        }
    }

    @Test func nonFiniteSampleIsRejected() throws {
        try Self.expectError(file: "X.f32", containing: "value 10 (trial 0, channel 0, sample 10) is nan, not finite") { url in
            var x = [UInt8](try Data(contentsOf: url.appendingPathComponent("X.f32")))
            let nan = Float.nan.bitPattern
            for b in 0..<4 { x[40 + b] = UInt8(nan >> (8 * UInt32(b)) & 0xFF) }
            try Data(x).write(to: url.appendingPathComponent("X.f32"))
        }
    }

    @Test func aSampleNoAmplifierRecordsIsRejectedInTrialsCutUpstream() throws {
        let header = DatasetHeader(fs: 100, nTrials: 2, nChannels: 2, nSamples: 50, nClasses: 2)
        var x = (0..<200).map { Float(10 * sin(Double($0))) }
        x[150 + 7] = -3e29                  // trial 1, channel 1, sample 7
        #expect(throws: DatasetError.self) {
            try TrialsDataset(header: header, data: x, labels: [0, 1], stimulus: [UInt8](repeating: 1, count: 100))
        }
        do {
            _ = try TrialsDataset(header: header, data: x, labels: [0, 1], stimulus: [UInt8](repeating: 1, count: 100))
        } catch {
            #expect("\(error)".hasPrefix("X.f32: value 157 (trial 1, channel 1, sample 7) is -3e+29, over 1000000 times"), "\(error)")
        }
        x[157] = -3e4                       // 3,000 times the channel's median magnitude: a real artifact, kept
        #expect(try TrialsDataset(header: header, data: x, labels: [0, 1], stimulus: [UInt8](repeating: 1, count: 100)).data[157] == -3e4)
    }

    @Test func labelOutsideTheClassesIsRejected() throws {
        try Self.expectError(file: "y.i32", containing: "class 7") { url in
            var y = [UInt8](try Data(contentsOf: url.appendingPathComponent("y.i32")))
            y[4] = 7
            try Data(y).write(to: url.appendingPathComponent("y.i32"))
        }
    }

    @Test func labelCountDisagreeingWithTheHeaderIsRejected() throws {
        try Self.expectError(file: "y.i32", containing: "expected 16 bytes") { url in
            try Data(count: 20).write(to: url.appendingPathComponent("y.i32"))
        }
    }

    @Test func stimulusOfTheWrongSizeIsRejected() throws {
        try Self.expectError(file: "V.u8", containing: "expected 375 bytes") { url in
            try Data(count: 374).write(to: url.appendingPathComponent("V.u8"))
        }
    }

    @Test func headerWithoutAFieldIsRejected() throws {
        try Self.expectError(file: "header.json", containing: "n_classes") { url in
            try Data(#"{"fs": 250, "n_trials": 4, "n_channels": 8, "n_samples": 125}"#.utf8)
                .write(to: url.appendingPathComponent("header.json"))
        }
    }

    @Test func headerThatIsNotJSONIsRejected() throws {
        try Self.expectError(file: "header.json", containing: "not JSON") { url in
            try Data("fs=250".utf8).write(to: url.appendingPathComponent("header.json"))
        }
    }

    @Test(arguments: [
        (#"{"fs": "250", "n_trials": 4, "n_channels": 8, "n_samples": 125, "n_classes": 3}"#, #"header.json: "fs" must be a number"#),
        (#"{"fs": 250, "n_trials": 4.5, "n_channels": 8, "n_samples": 125, "n_classes": 3}"#,
         #"header.json: "n_trials" must be a whole number (it is 4.5)"#),
        (#"{"fs": 1e300, "n_trials": 4, "n_channels": 8, "n_samples": 125, "n_classes": 3}"#,
         "header.json: fs 1e+300 Hz is above 100000 Hz, faster than any EEG amplifier"),
        (#"{"fs": 250, "n_trials": 4, "n_channels": 8, "n_samples": 125, "n_classes": 3, "channels": ["Oz"]}"#,
         "header.json: channels names 1, n_channels is 8"),
    ])
    func aHeaderFieldOfTheWrongKindIsNamed(_ header: String, _ message: String) throws {
        let url = try Self.written()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(header.utf8).write(to: url.appendingPathComponent("header.json"))
        #expect(throws: (any Error).self) { try TrialsDataset.read(from: url) }
        do { _ = try TrialsDataset.read(from: url) } catch { #expect("\(error)" == message) }
    }

    @Test func aFolderWhereAFileShouldBeIsNamed() throws {
        let url = try Self.written()
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.removeItem(at: url.appendingPathComponent("X.f32"))
        try FileManager.default.createDirectory(at: url.appendingPathComponent("X.f32"), withIntermediateDirectories: false)
        #expect(throws: DatasetError.unreadable(file: "X.f32", reason: "a folder, not a file")) { try TrialsDataset.read(from: url) }
    }

    @Test func aDatasetWithoutContextRemovesTheContextOfTheOneBefore() throws {
        let url = Self.folder()
        defer { try? FileManager.default.removeItem(at: url) }
        let header = DatasetHeader(fs: 100, nTrials: 2, nChannels: 1, nSamples: 10, nClasses: 2)
        let continuous = try TrialsDataset(header: header, continuous: (0..<100).map(Float.init), length: 100, onsets: [0, 50],
                                           labels: [0, 1], stimulus: (0..<20).map { UInt8($0 % 2) })
        try continuous.write(to: url)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("continuous.f32").path))
        let cut = try TrialsDataset(header: header, data: continuous.data, labels: continuous.labels, stimulus: continuous.stimulus)
        try cut.write(to: url)
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("continuous.f32").path))
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("onsets.i32").path))
        #expect(try TrialsDataset.read(from: url) == cut)
    }

    @Test("sizes whose files would hold more bytes than can be counted are refused by name, not an overflow trap",
          arguments: ["n_trials", "n_channels", "n_samples", "n_classes"])
    func headerWithAnUncountableSizeIsRejected(size: String) throws {
        var fields = ["fs": "250", "n_trials": "4", "n_channels": "8", "n_samples": "125", "n_classes": "3"]
        fields[size] = "4611686018427387904"     // 2^62
        let json = "{" + fields.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        try Self.expectError(file: "header.json", containing: "is more bytes than any file holds") { url in
            try Data(json.utf8).write(to: url.appendingPathComponent("header.json"))
        }
    }

    @Test func aRateBelowOneHertzIsRejected() throws {
        try Self.expectError(file: "header.json", containing: "fs 1e-300 Hz is below 1 Hz") { url in
            try Data(#"{"fs": 1e-300, "n_trials": 4, "n_channels": 8, "n_samples": 125, "n_classes": 3}"#.utf8)
                .write(to: url.appendingPathComponent("header.json"))
        }
    }

    @Test func headerWithANegativeSizeIsRejected() throws {
        try Self.expectError(file: "header.json", containing: "n_channels must be positive") { url in
            try Data(#"{"fs": 250, "n_trials": 4, "n_channels": -8, "n_samples": 125, "n_classes": 3}"#.utf8)
                .write(to: url.appendingPathComponent("header.json"))
        }
    }
}
