import Foundation
import TestSupport
import Testing
import ZIPFoundation
@testable import LabFormats

@Suite struct CodesFileTests {
    /// A .npy v1 file of `shape` with `descr` and the raw little-endian `payload`.
    func npy(_ descr: String, shape: String, fortran: Bool = false, payload: [UInt8]) -> [UInt8] {
        var header = "{'descr': '\(descr)', 'fortran_order': \(fortran ? "True" : "False"), 'shape': \(shape), }"
        while (10 + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        return [0x93] + Array("NUMPY".utf8) + [1, 0] + XDFBuilder.le(UInt16(header.utf8.count)) + Array(header.utf8) + payload
    }

    @Test func theSpellerNpzHoldsSixtyThreeCodes() throws {
        let codes = try CodesFile.read(LabFixtures.url("mgold_61_6521.npz"))
        #expect(codes.count == 63 && codes.allSatisfy { $0.count == 126 })
        #expect(codes.allSatisfy { $0.allSatisfy { $0 <= 1 } } && Set(codes).count == 63)
    }

    @Test func npyDtypesAndOrdersAreRead() throws {
        let u1 = try LabFixtures.scratch("u1.npy", npy("|u1", shape: "(2, 3)", payload: [0, 1, 1, 1, 0, 0]))
        #expect(try CodesFile.read(u1) == [[0, 1, 1], [1, 0, 0]])
        let f8 = try LabFixtures.scratch("f8.npy", npy("<f8", shape: "(2, 2)", payload: [0.0, 1, 1, 0].flatMap { XDFBuilder.le($0) }))
        #expect(try CodesFile.read(f8) == [[0, 1], [1, 0]])
        let i4 = try LabFixtures.scratch("i4.npy", npy("<i4", shape: "(2, 3)", fortran: true, payload: [Int32(0), 1, 1, 1, 0, 0].flatMap { XDFBuilder.le($0) }))
        #expect(try CodesFile.read(i4) == [[0, 1, 0], [1, 1, 0]])
        let bool = try LabFixtures.scratch("b.npy", npy("|b1", shape: "(1, 2)", payload: [1, 0]))
        #expect(try CodesFile.read(bool) == [[1, 0]])
    }

    @Test func badArraysAreOneLine() throws {
        let complex = try LabFixtures.scratch("c.npy", npy("<c16", shape: "(1, 1)", payload: Array(repeating: 0, count: 16)))
        #expect(LabFixtures.message { _ = try CodesFile.read(complex) } == "c.npy: dtype <c16 is not supported (|u1 |i1 <i2 <u2 <i4 <u4 <i8 <u8 <f4 <f8 or bool)")
        let two = try LabFixtures.scratch("two.npy", npy("|u1", shape: "(1, 3)", payload: [0, 2, 1]))
        #expect(LabFixtures.message { _ = try CodesFile.read(two) } == "two.npy: value 2.0 at class 0, bit 1 is not 0 or 1")
        let flat = try LabFixtures.scratch("flat.npy", npy("|u1", shape: "(3,)", payload: [0, 1, 1]))
        #expect(LabFixtures.message { _ = try CodesFile.read(flat) }.hasPrefix("flat.npy: the array has shape (3); codes must be 2-D"))
        let empty = try LabFixtures.scratch("empty.npy", npy("|u1", shape: "(0, 126)", payload: []))
        #expect(LabFixtures.message { _ = try CodesFile.read(empty) } == "empty.npy: the array has shape (0, 126): no classes")
        let constant = try LabFixtures.scratch("constant.npy", npy("|u1", shape: "(2, 3)", payload: [1, 1, 1, 0, 0, 0]))
        #expect(LabFixtures.message { _ = try CodesFile.read(constant) }
            == "constant.npy: every code holds one value throughout (2 × 3): no code flickers, nothing to decode")
        let short = try LabFixtures.scratch("short.npy", npy("<f4", shape: "(2, 2)", payload: [0, 0, 0]))
        #expect(LabFixtures.message { _ = try CodesFile.read(short) }.contains("truncated"))
        let text = try LabFixtures.scratch("t.txt", Array("hello\nworld\n".utf8))
        #expect(LabFixtures.message { _ = try CodesFile.read(text) }.hasPrefix("t.txt: not a .npz, .npy, MAT-file or readable codebook"))
        #expect(LabFixtures.message { _ = try CodesFile.read(URL(fileURLWithPath: "/nonexistent/x.npz")) } == "/nonexistent/x.npz: no such file")
    }

    @Test func aMATFileGivesItsCodesVariableOrItsOnlyMatrix() throws {
        // codes: 2 × 3 (rows 0 1 1 / 1 0 0) stored column-major as uint8; fs a scalar; name a text.
        let codes = MATFileTests.matrix("codes", mxClass: 9, dims: [2, 3], dataType: 2, [0, 1, 1, 0, 1, 0])
        let other = MATFileTests.matrix("V", mxClass: 6, dims: [2, 2], dataType: 9, [1.0, 0, 0, 1].flatMap { XDFBuilder.le($0) })
        let fs = MATFileTests.matrix("fs", mxClass: 6, dims: [1, 1], dataType: 9, XDFBuilder.le(60.0))
        let named = try LabFixtures.scratch("c.mat", MATFileTests.file([other, codes, fs]))
        #expect(try CodesFile.read(named) == [[0, 1, 1], [1, 0, 0]])
        let renamed = MATFileTests.matrix("mgold", mxClass: 9, dims: [2, 3], dataType: 2, [0, 1, 1, 0, 1, 0])
        let only = try LabFixtures.scratch("o.mat", MATFileTests.file([renamed, fs]))
        #expect(try CodesFile.read(only) == [[0, 1, 1], [1, 0, 0]])  // fs, 1 × 1, is no matrix
        let two = try LabFixtures.scratch("two.mat", MATFileTests.file([renamed, other]))
        #expect(LabFixtures.message { _ = try CodesFile.read(two) } == "two.mat: several matrices (V, mgold) and none named codes: save the codes as codes")
        let none = try LabFixtures.scratch("none.mat", MATFileTests.file([]))
        #expect(LabFixtures.message { _ = try CodesFile.read(none) } == "none.mat: no numeric matrix to take the codes from (variables: none)")
        let v73 = try LabFixtures.scratch("h.mat", MATFileTests.file([], text: "MATLAB 7.3 MAT-file, Platform: GLNXA64"))
        #expect(LabFixtures.message { _ = try CodesFile.read(v73) }.hasPrefix("h.mat: a MATLAB 7.3 MAT-file is HDF5"))
    }

    @Test func aDeflatedNpzIsRead() throws {
        let payload = npy("|u1", shape: "(2, 4)", payload: [0, 1, 0, 1, 1, 1, 0, 0])
        let url = try ScratchFolder.file("deflated.npz")
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(with: "other.npy", type: .file, uncompressedSize: Int64(payload.count), compressionMethod: .deflate) { position, size in
            Data(payload[Int(position)..<(Int(position) + size)])
        }
        try archive.addEntry(with: "codes.npy", type: .file, uncompressedSize: Int64(payload.count), compressionMethod: .deflate) { position, size in
            Data(payload[Int(position)..<(Int(position) + size)])
        }
        #expect(try CodesFile.read(url) == [[0, 1, 0, 1], [1, 1, 0, 0]])
    }

    @Test func aMindAffectCodebookIsRead() throws {
        let codes = try CodesFile.read(LabFixtures.url("mgold_61_6521_psk_60hz.txt"))
        #expect(codes.count > 2 && codes.allSatisfy { $0.count == codes[0].count })
    }
}
