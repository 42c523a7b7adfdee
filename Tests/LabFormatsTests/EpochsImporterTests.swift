import Decoding
import Foundation
import TestSupport
import Testing
import ZIPFoundation
@testable import LabFormats

/// Trials cut upstream, in a `.npz` as pyntbci's datasets hold them: X in
/// volts or µV, y, V at the EEG's rate (one cycle, repeated), fs. The six
/// real pyntbci sets are compared byte for byte with the Python conversion
/// in Benchmarks/ACCURACY.md; the interop tests read files numpy wrote.
@Suite struct EpochsImporterTests {
    /// A .npy v1 array: `descr`, the shape as Python writes it, the little-endian payload.
    static func npy(_ descr: String, _ shape: String, fortran: Bool = false, _ payload: [UInt8]) -> [UInt8] {
        var header = "{'descr': '\(descr)', 'fortran_order': \(fortran ? "True" : "False"), 'shape': \(shape), }"
        while (10 + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        return [0x93] + Array("NUMPY".utf8) + [1, 0] + XDFBuilder.le(UInt16(header.utf8.count)) + Array(header.utf8) + payload
    }

    /// A `.npz` holding `arrays` (name → .npy bytes), deflated as `np.savez_compressed` writes it.
    static func npz(_ arrays: [(String, [UInt8])]) throws -> URL {
        let url = try ScratchFolder.file("epochs.npz")
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
        let (dataset, notes) = try EpochsImporter.read(try Self.standard())
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
        #expect(try EpochsImporter.read(inMicrovolts).dataset.data == Self.microvolts)
        #expect(try EpochsImporter.read(inMicrovolts, units: .volts).dataset.data == Self.microvolts.map { Float(Double($0) * 1e6) })
        #expect(try EpochsImporter.read(try Self.standard(), units: .microvolts).dataset.data.allSatisfy { abs($0) < 1e-3 })
    }

    @Test func rawVoltsWithLargeOffsetsAreTakenAsVolts() throws {
        // A Cyton's raw channels sit at −0.1 to −0.2 V with microvolts of EEG on top:
        // their plain RMS (0.15) would pass them off as µV.
        let raw = Self.microvolts.enumerated().map { i, value in Float(-0.1 - 0.05 * Double(i / 6 % 2)) + value * 1e-6 }
        let (dataset, notes) = try EpochsImporter.read(try Self.standard(x: Self.npy("<f4", "(3, 2, 6)", raw.flatMap { XDFBuilder.le($0) })))
        #expect(notes.first?.hasPrefix("X taken as volts") == true, "\(notes)")
        #expect(abs(Double(dataset.data[0]) - -100_000) < 50, "written in µV: \(dataset.data[0])")
    }

    @Test func aFortranOrderedXOfThreeDimensionsReadsAsCOrder() throws {
        // Fortran order on disk: the first index varies fastest.
        var fortran: [Float] = []
        for s in 0..<6 { for c in 0..<2 { for t in 0..<3 { fortran.append(Float(t * 100 + c * 10 + s)) } } }
        let url = try Self.standard(x: Self.npy("<f4", "(3, 2, 6)", fortran: true, fortran.flatMap { XDFBuilder.le($0) }))
        #expect(try EpochsImporter.read(url, units: .microvolts).dataset.data == Self.microvolts)
    }

    @Test func codesReplaceOrSupplyVAndClassesKeepTheFirst() throws {
        // Codes at 120 bits per second on 240 Hz: each bit two samples.
        let codes: [[UInt8]] = [[1, 0, 1], [0, 1, 1], [1, 1, 0]]
        let withoutV = try Self.standard(v: nil)
        let dataset = try EpochsImporter.read(withoutV, codes: codes, codeRate: 120).dataset
        #expect(dataset.stimulus(ofClass: 1) == [0, 0, 1, 1, 1, 1])
        #expect(LabFixtures.message { _ = try EpochsImporter.read(withoutV) }.hasSuffix("no V array: give the codes with --codes (and --code-rate)"))
        // Three classes kept of four codes; a trial of class 2 no longer fits in two.
        #expect(try EpochsImporter.read(withoutV, codes: codes + [[0, 0, 1]], codeRate: 120, classes: 3).dataset.header.nClasses == 3)
        #expect(LabFixtures.message { _ = try EpochsImporter.read(try Self.standard(), classes: 2) }
                .hasSuffix(": y: trial 0 has class 2, outside the 2 codes"))
        #expect(LabFixtures.message { _ = try EpochsImporter.read(try Self.standard(), classes: 9) } == "--classes: 9: the codes have 3 classes")
        // Twice as many codes as bits, as the project's own 63 × 126 codebook saved transposed: a warning, the import goes on.
        let notes = try EpochsImporter.read(withoutV, codes: [[1, 0], [0, 1], [1, 1], [0, 0]], codeRate: 120).notes
        #expect(notes.contains("the codes hold 4 classes of 2 bits each (rows are classes): if the file holds bits × classes, save its transpose"))
    }

    @Test func badArchivesAndArraysAreOneLineNamingTheArray() throws {
        func message(_ url: URL) -> String { LabFixtures.message { _ = try EpochsImporter.read(url) } }
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
        #expect(message(try Self.standard(v: Self.npy("|u1", "(4, 3)", [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0])))
                .hasSuffix(": V: shape (4, 3): more classes than samples; V is classes × samples (save its transpose)"))
        #expect(message(try Self.standard(fs: Self.npy("<f8", "()", XDFBuilder.le(0.0)))).hasSuffix(": fs: expected one positive sample rate, got 0.0"))
        let truncated = try Self.npz([("X", Array(Self.npy("<f4", "(3, 2, 6)", Self.microvolts.flatMap { XDFBuilder.le($0) }).prefix(100)))])
        #expect(message(truncated).contains(": X: ") && message(truncated).contains("truncated"))
        let notZip = try LabFixtures.scratch("broken.npz", [0x50, 0x4B, 0x03, 0x04, 1, 2, 3])
        #expect(message(notZip).hasPrefix("broken.npz: not a readable .npz (zip) file"))
        // An EDF given as epochs (--format mat) is named as neither kind, not as a broken zip.
        let edf = try LabFixtures.scratch("rec.mat", Array("0       patient".utf8))
        #expect(message(edf).hasPrefix("rec.mat: neither a MAT-file (level 5: its first bytes are \"MATLAB\") nor a NumPy .npz"))
        #expect(message(URL(fileURLWithPath: "/nonexistent/e.npz")) == "/nonexistent/e.npz: no such file")
        #expect(try LabFormat.detect(try Self.standard()) == .npz)
    }

    @Test func anArchiveWhoseDirectoryPointsPastItsEndIsOneLine() throws {
        // The end-of-central-directory record's offset of the directory, pointed past the file's end
        // (a damage the fuzzer made; reading such an archive from memory traps in ZIPFoundation).
        let url = try Self.standard()
        var bytes = [UInt8](try Data(contentsOf: url))
        let end = try #require((0...(bytes.count - 22)).reversed().first { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4B, 0x05, 0x06]) })
        bytes.replaceSubrange((end + 16)..<(end + 20), with: XDFBuilder.le(UInt32(bytes.count + 5000)))
        let damaged = try LabFixtures.scratch("past-end.npz", bytes)
        #expect(LabFixtures.message { _ = try EpochsImporter.read(damaged) }.hasPrefix("past-end.npz: "))
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeflatedArrayWhoseStreamRunsToTheFileEndIsOneLineNotAHang() throws {
        // X.npy, the first member, opened with a stored block that asks for 65,535 bytes: the stream runs past
        // the member into the rest of the archive and its end (ZIPFoundation 0.9.20 read on at the end for ever).
        var bytes = [UInt8](try Data(contentsOf: try Self.standard()))
        let data = 30 + 5 + Int(bytes[28]) | Int(bytes[29]) << 8     // the local header, "X.npy", its extra field
        bytes.replaceSubrange(data..<(data + 5), with: [0x00, 0xFF, 0xFF, 0x00, 0x00])
        let damaged = try LabFixtures.scratch("endless.npz", bytes)
        #expect(LabFixtures.message { _ = try EpochsImporter.read(damaged) } == "endless.npz: X.npy: the deflate stream is cut short")
        // Its directory's compressed size pointed past the file's end: said, not read.
        let end = try #require((0...(bytes.count - 22)).reversed().first { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4B, 0x05, 0x06]) })
        let directory = Int(bytes[end + 16]) | Int(bytes[end + 17]) << 8 | Int(bytes[end + 18]) << 16 | Int(bytes[end + 19]) << 24
        bytes.replaceSubrange((directory + 20)..<(directory + 24), with: XDFBuilder.le(UInt32(bytes.count)))
        let past = try LabFixtures.scratch("past.npz", bytes)
        #expect(LabFixtures.message { _ = try EpochsImporter.read(past) }
            == "past.npz: X.npy: cannot extract: the zip directory does not say where its data lie, or they run past the file's end")
    }

    /// The RMS about the mean of each run of 6 values (one channel of one trial of `microvolts`).
    static func rms(_ values: [Float]) -> Double {
        var squares = 0.0
        for start in stride(from: 0, to: values.count, by: 6) {
            let run = values[start..<(start + 6)].map(Double.init), mean = run.reduce(0, +) / 6
            squares += run.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        return (squares / Double(values.count)).squareRoot()
    }
}

/// MAT-files built here element by element after MathWorks' level-5 layout
/// (SciPy-written ones are read in Tests/Interop/test_epochs_import.py).
@Suite struct MATFileTests {
    static func element(_ type: UInt32, _ data: [UInt8]) -> [UInt8] {
        if data.count <= 4, type != 14, type != 15 {   // the small format: size and type in one word
            return XDFBuilder.le(UInt32(data.count) << 16 | type) + data + [UInt8](repeating: 0, count: 4 - data.count)
        }
        let padding = type == 15 ? 0 : (8 - data.count % 8) % 8    // compressed elements are not padded
        return XDFBuilder.le(type) + XDFBuilder.le(UInt32(data.count)) + data + [UInt8](repeating: 0, count: padding)
    }

    /// A variable: class, dimensions, name, the column-major values as `dataType` bytes.
    static func matrix(_ name: String, mxClass: UInt32, complex: Bool = false, dims: [Int32], dataType: UInt32, _ data: [UInt8]) -> [UInt8] {
        element(14, element(6, XDFBuilder.le(mxClass | (complex ? 0x800 : 0)) + XDFBuilder.le(UInt32(0)))
                    + element(5, dims.flatMap { XDFBuilder.le($0) }) + element(1, Array(name.utf8)) + element(dataType, data))
    }

    static func file(_ elements: [[UInt8]], endian: String = "IM", text: String = "MATLAB 5.0 MAT-file, built by MATFileTests") -> [UInt8] {
        Array(text.utf8).prefix(116) + [UInt8](repeating: 0x20, count: 116 - min(116, text.utf8.count)) + [UInt8](repeating: 0, count: 8)
            + [0, 1] + Array(endian.utf8) + elements.flatMap { $0 }
    }

    /// zlib (RFC 1950) around ZIPFoundation's raw deflate, with its Adler-32.
    static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = [0x78, 0x9C]
        _ = try Data.compress(size: Int64(bytes.count), bufferSize: 1 << 16, provider: { at, size in
            Data(bytes[Int(at)..<min(Int(at) + size, bytes.count)])
        }, consumer: { out += $0 })
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    @Test func numericVariablesReadInCOrderAndTheRestArePassedOver() throws {
        // X: 2 × 3 doubles stored column-major (1 4 2 5 3 6 is the rows 1 2 3 / 4 5 6), "fs" a 1 × 1 single.
        let x = Self.matrix("X", mxClass: 6, dims: [2, 3], dataType: 9, [1.0, 4, 2, 5, 3, 6].flatMap { XDFBuilder.le($0) })
        let fs = Self.matrix("fs", mxClass: 7, dims: [1, 1], dataType: 7, XDFBuilder.le(Float(240)))
        // y: doubles stored as uint8 (MATLAB stores values in the smallest type that holds them), compressed.
        let y = try Self.element(15, Self.zlib(Self.matrix("y", mxClass: 6, dims: [1, 3], dataType: 2, [2, 0, 1])))
        let text = Self.matrix("who", mxClass: 4, dims: [1, 2], dataType: 4, Array("ab".utf16).flatMap { XDFBuilder.le($0) })
        let complex = Self.matrix("z", mxClass: 6, complex: true, dims: [1, 1], dataType: 9, XDFBuilder.le(1.0))
        let file = try MATFile(bytes: Self.file([x, fs, y, text, complex]), name: "t.mat")
        #expect(file.arrays["X"]?.dims == [2, 3] && file.arrays["X"]?.values == [1, 2, 3, 4, 5, 6])
        #expect(file.arrays["fs"]?.values == [240] && file.arrays["y"]?.values == [2, 0, 1])
        #expect(file.skipped == ["z": "complex"] && file.texts == ["who": ["ab"]])
        // A writer that pads its compressed elements to 8 bytes as it pads the others: read the same.
        try #require(y.count % 8 != 0, "the case needs a compressed element whose length is not a multiple of 8")
        let padded = y + [UInt8](repeating: 0, count: 8 - y.count % 8)
        #expect(try MATFile(bytes: Self.file([padded, x]), name: "t.mat").arrays.keys.sorted() == ["X", "y"])
    }

    @Test func textsAreACharMatrixsRowsOrACellArraysStrings() throws {
        // A 2 × 3 char matrix, column-major: rows "Oz " and "POz".
        let chars = Self.matrix("ch_names", mxClass: 4, dims: [2, 3], dataType: 4, Array("OPzO z".utf16).flatMap { XDFBuilder.le($0) })
        let cellOne = Self.matrix("", mxClass: 4, dims: [1, 2], dataType: 4, Array("O1".utf16).flatMap { XDFBuilder.le($0) })
        let cellTwo = Self.matrix("", mxClass: 4, dims: [1, 2], dataType: 4, Array("O2".utf16).flatMap { XDFBuilder.le($0) })
        let cells = Self.element(14, Self.element(6, XDFBuilder.le(UInt32(1)) + XDFBuilder.le(UInt32(0)))
                                     + Self.element(5, [Int32(2), 1].flatMap { XDFBuilder.le($0) }) + Self.element(1, Array("names".utf8))
                                     + cellOne + cellTwo)
        let file = try MATFile(bytes: Self.file([chars, cells]), name: "t.mat")
        #expect(file.texts == ["ch_names": ["Oz", "POz"], "names": ["O1", "O2"]])
        #expect(file.arrays.isEmpty && file.skipped.isEmpty)
    }

    @Test func otherFilesAreOneLine() throws {
        func message(_ bytes: [UInt8]) -> String { LabFixtures.message { _ = try MATFile(bytes: bytes, name: "t.mat") } }
        let x = Self.matrix("X", mxClass: 6, dims: [2, 3], dataType: 9, [1.0, 4, 2, 5, 3, 6].flatMap { XDFBuilder.le($0) })
        #expect(message(Self.file([x], text: "MATLAB 7.3 MAT-file, Platform: GLNXA64")).contains("is HDF5, which noisetag does not read: save it with -v7"))
        #expect(message(Self.file([x], endian: "MI")) == "t.mat: a big-endian MAT-file, which noisetag does not read")
        #expect(message(Array(Self.file([x]).prefix(170))).contains("truncated"))
        #expect(message(Self.file([Self.matrix("X", mxClass: 6, dims: [2, 3], dataType: 9, XDFBuilder.le(1.0))]))
                == "t.mat: X: 1 values for dimensions 2 × 3")
        #expect(message(Self.file([Self.element(15, [0x78, 0x9C, 1, 2, 3, 4, 5, 6, 7, 8])])) == "t.mat: the zlib stream is corrupt")
        #expect(message(Array("MATLAB 4".utf8) + [UInt8](repeating: 0, count: 200)).hasSuffix("not a level-5 MAT-file (no \"MATLAB 5.0 MAT-file\" header)"))
    }
}
