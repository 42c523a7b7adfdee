import Decoding
import Foundation
import Testing
import ZIPFoundation
@testable import LabFormats

/// Trials cut upstream, in a `.npz` as pyntbci's datasets hold them: X in
/// volts or µV, y, V at the EEG's rate (one cycle, repeated), fs. The six
/// real pyntbci sets are compared byte for byte with the Python conversion
/// in Benchmarks/ACCURACY.md; the interop tests read files numpy wrote.
@Suite struct NPZEpochsImporterTests {
    /// A .npy v1 array: `descr`, the shape as Python writes it, the little-endian payload.
    static func npy(_ descr: String, _ shape: String, fortran: Bool = false, _ payload: [UInt8]) -> [UInt8] {
        var header = "{'descr': '\(descr)', 'fortran_order': \(fortran ? "True" : "False"), 'shape': \(shape), }"
        while (10 + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        return [0x93] + Array("NUMPY".utf8) + [1, 0] + XDFBuilder.le(UInt16(header.utf8.count)) + Array(header.utf8) + payload
    }

    /// A `.npz` holding `arrays` (name → .npy bytes), deflated as `np.savez_compressed` writes it.
    static func npz(_ arrays: [(String, [UInt8])]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("epochs-\(UUID().uuidString).npz")
        let archive = try Archive(url: url, accessMode: .create)
        for (name, bytes) in arrays {
            try archive.addEntry(with: name + ".npy", type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { at, size in
                Data(bytes[Int(at)..<(Int(at) + size)])
            }
        }
        return url
    }

    /// X: 3 trials × 2 channels × 6 samples, value t·100 + c·10 + s microvolts.
    static let microvolts: [Float] = {
        var values: [Float] = []
        for t in 0..<3 { for c in 0..<2 { for s in 0..<6 { values.append(Float(t * 100 + c * 10 + s)) } } }
        return values
    }()

    static func standard(x: [UInt8]? = nil, y: [UInt8] = npy("|u1", "(3,)", [2, 0, 1]),
                         v: [UInt8]? = npy("|u1", "(3, 4)", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1]),
                         fs: [UInt8] = npy("<f8", "()", XDFBuilder.le(240.0))) throws -> URL {
        let volts = x ?? npy("<f4", "(3, 2, 6)", microvolts.flatMap { XDFBuilder.le($0 * 1e-6) })
        return try npz([("X", volts), ("y", y), ("fs", fs)] + (v.map { [("V", $0)] } ?? []))
    }

    @Test func pyntbciShapedEpochsImportInMicrovoltsWithTheCodeCycleRepeated() throws {
        let (dataset, notes) = try NPZEpochsImporter.read(try Self.standard())
        let h = dataset.header
        #expect((h.nTrials, h.nChannels, h.nSamples, h.nClasses, h.fs) == (3, 2, 6, 3, 240))
        #expect(h.nContinuous == nil && dataset.context == nil)
        #expect(zip(dataset.data, Self.microvolts).allSatisfy { abs($0 - $1) <= 1e-4 * max(1, abs($1)) })
        #expect(dataset.labels == [2, 0, 1])
        // V's 4 samples (one cycle) repeated over the trial's 6.
        #expect(dataset.stimulus(ofClass: 0) == [1, 0, 0, 0, 1, 0] && dataset.stimulus(ofClass: 2) == [0, 0, 1, 1, 0, 0])
        #expect(notes == ["X taken as volts (RMS \(String(format: "%.3g", Self.rms(Self.microvolts) * 1e-6)), under 0.01) and written in µV; --units microvolts if it was not"])
        // The same numbers stored in µV are taken as µV; --units overrides the guess either way.
        let inMicrovolts = try Self.standard(x: Self.npy("<f4", "(3, 2, 6)", Self.microvolts.flatMap { XDFBuilder.le($0) }))
        #expect(try NPZEpochsImporter.read(inMicrovolts).dataset.data == Self.microvolts)
        #expect(try NPZEpochsImporter.read(inMicrovolts, units: .volts).dataset.data == Self.microvolts.map { Float(Double($0) * 1e6) })
        #expect(try NPZEpochsImporter.read(try Self.standard(), units: .microvolts).dataset.data.allSatisfy { abs($0) < 1e-3 })
    }

    @Test func aFortranOrderedXOfThreeDimensionsReadsAsCOrder() throws {
        // Fortran order on disk: the first index varies fastest.
        var fortran: [Float] = []
        for s in 0..<6 { for c in 0..<2 { for t in 0..<3 { fortran.append(Float(t * 100 + c * 10 + s)) } } }
        let url = try Self.standard(x: Self.npy("<f4", "(3, 2, 6)", fortran: true, fortran.flatMap { XDFBuilder.le($0) }))
        #expect(try NPZEpochsImporter.read(url, units: .microvolts).dataset.data == Self.microvolts)
    }

    @Test func codesReplaceOrSupplyVAndClassesKeepTheFirst() throws {
        // Codes at 120 bits per second on 240 Hz: each bit two samples.
        let codes: [[UInt8]] = [[1, 0, 1], [0, 1, 1], [1, 1, 0]]
        let withoutV = try Self.standard(v: nil)
        let dataset = try NPZEpochsImporter.read(withoutV, codes: codes, codeRate: 120).dataset
        #expect(dataset.stimulus(ofClass: 1) == [0, 0, 1, 1, 1, 1])
        #expect(LabFixtures.message { _ = try NPZEpochsImporter.read(withoutV) }.hasSuffix("no V array: give the codes with --codes (and --code-rate)"))
        // Three classes kept of four codes; a trial of class 2 no longer fits in two.
        #expect(try NPZEpochsImporter.read(withoutV, codes: codes + [[0, 0, 1]], codeRate: 120, classes: 3).dataset.header.nClasses == 3)
        #expect(LabFixtures.message { _ = try NPZEpochsImporter.read(try Self.standard(), classes: 2) }
                .hasSuffix(": y: trial 0 has class 2, outside the 2 codes"))
        #expect(LabFixtures.message { _ = try NPZEpochsImporter.read(try Self.standard(), classes: 9) } == "--classes: 9: the codes have 3 classes")
    }

    @Test func badArchivesAndArraysAreOneLineNamingTheArray() throws {
        func message(_ url: URL) -> String { LabFixtures.message { _ = try NPZEpochsImporter.read(url) } }
        let noX = try Self.npz([("y", Self.npy("|u1", "(3,)", [0, 1, 2]))])
        #expect(message(noX) == "\(noX.lastPathComponent): no X array (found y; epoched trials need X, y and fs, and V or --codes)")
        let flat = try Self.standard(x: Self.npy("<f4", "(3, 12)", Self.microvolts.flatMap { XDFBuilder.le($0) }))
        #expect(message(flat).hasSuffix(": X: shape (3, 12): expected trials × channels × samples"))
        var withNaN = Self.microvolts.map { $0 * 1e-6 }
        withNaN[1 * 12 + 6 + 4] = .nan
        #expect(message(try Self.standard(x: Self.npy("<f4", "(3, 2, 6)", withNaN.flatMap { XDFBuilder.le($0) })))
                .hasSuffix(": X: trial 1, channel 1, sample 4 is nan"))
        #expect(message(try Self.standard(y: Self.npy("|u1", "(2,)", [0, 1]))).hasSuffix(": y: shape (2): expected one class per trial, 3 (X has 3 trials)"))
        #expect(message(try Self.standard(y: Self.npy("<f8", "(3,)", [0.0, 1.5, 2].flatMap { XDFBuilder.le($0) })))
                .hasSuffix(": y: trial 1 has class 1.5: classes are whole numbers from 0"))
        #expect(message(try Self.standard(y: Self.npy("|u1", "(3,)", [0, 1, 7]))).hasSuffix(": y: trial 2 has class 7, outside the 3 codes"))
        #expect(message(try Self.standard(v: Self.npy("|u1", "(3, 2)", [0, 1, 2, 0, 1, 1]))).hasSuffix(": V: value 2.0 at class 1, sample 0 is not 0 or 1"))
        #expect(message(try Self.standard(fs: Self.npy("<f8", "()", XDFBuilder.le(0.0)))).hasSuffix(": fs: expected one positive sample rate, got 0.0"))
        let truncated = try Self.npz([("X", Array(Self.npy("<f4", "(3, 2, 6)", Self.microvolts.flatMap { XDFBuilder.le($0) }).prefix(100)))])
        #expect(message(truncated).contains("X.npy") && message(truncated).contains("truncated"))
        let notZip = try LabFixtures.scratch("broken.npz", [0x50, 0x4B, 0x03, 0x04, 1, 2, 3])
        #expect(message(notZip).hasPrefix("broken.npz: not a readable .npz (zip) file"))
        #expect(message(URL(fileURLWithPath: "/nonexistent/e.npz")) == "/nonexistent/e.npz: no such file")
        #expect(try LabFormat.detect(try Self.standard()) == .npz)
    }

    static func rms(_ values: [Float]) -> Double {
        (values.reduce(0) { $0 + Double($1) * Double($1) } / Double(values.count)).squareRoot()
    }
}
