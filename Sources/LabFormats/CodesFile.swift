import Foundation
import NoiseTagging

/// Reads stimulus codes (classes × bits, each 0 or 1) for
/// `noisetag dataset import --codes`: a NumPy `.npz` (its `codes` array, or
/// the first array; stored or deflated), a `.npy` (2-D, integer, float or
/// bool), a MAT-file (its `codes` variable, or its only 2-D numeric one;
/// level 5, as ``MATFile`` reads), or a MindAffect codebook text file (`#`
/// comments, a row of times, one row of states per code).
public enum CodesFile {
    /// A warning when `codes` (rows are classes) look transposed: at least
    /// twice as many classes as bits, where a c-VEP codebook has about as
    /// many codes as bits or fewer (63 Gold codes of 63 or 126 bits). The
    /// project's own codebook saved transposed is exactly twice; a
    /// row/column speller's codes can trip it too, hence a warning.
    public static func orientationWarning(_ codes: [[UInt8]]) -> String? {
        guard let bits = codes.first?.count, codes.count >= 2 * bits else { return nil }
        return "the codes hold \(codes.count) classes of \(bits) bits each (rows are classes): if the file holds bits × classes, save its transpose"
    }

    /// The codes in `url`, one row per class; throws an ``LabFormatError``
    /// naming the file and the reason.
    public static func read(_ url: URL) throws -> [[UInt8]] {
        let name = url.lastPathComponent
        try SpecialFile.refuse(url)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LabFormatError.unreadable(url, error)
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return try codes(from: try npzArray(url, name: name), subject: name)
        }
        if bytes.starts(with: [0x93] + Array("NUMPY".utf8)) {
            return try codes(from: try NumericArray(npy: bytes, subject: name), subject: name)
        }
        if bytes.starts(with: MATFile.magic) || bytes.starts(with: Array("MATLAB 7.3 MAT-file".utf8)) {
            return try codes(from: try matArray(bytes, name: name), subject: name)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LabFormatError(name, "not a .npz, .npy, MAT-file or codebook text file")
        }
        do {
            return try CodebookFile(parsing: text, name: name).codebook.codes
        } catch {
            throw LabFormatError(name, "not a .npz, .npy, MAT-file or readable codebook text file (\(error))")
        }
    }

    private static func npzArray(_ url: URL, name: String) throws -> NumericArray {
        let members = try NumericArray.npzMembers(url, name: name)
        return try (members.first { $0.key == "codes" } ?? members[0]).array.get()
    }

    /// A MAT-file's `codes` variable, else its only numeric matrix (2-D,
    /// more than one row and column: MATLAB's scalars and vectors are 2-D too).
    private static func matArray(_ bytes: [UInt8], name: String) throws -> NumericArray {
        let mat = try MATFile(bytes: bytes, name: name)
        if let codes = mat.arrays["codes"] { return codes }
        let matrices = mat.arrays.filter { $0.value.dims.count == 2 && $0.value.dims.allSatisfy { $0 > 1 } }
        guard matrices.count == 1, let only = matrices.first else {
            let names = (matrices.isEmpty ? mat.arrays : matrices).keys.sorted().joined(separator: ", ")
            throw LabFormatError(name, matrices.isEmpty ? "no numeric matrix to take the codes from (variables: \(names.isEmpty ? "none" : names))"
                                                         : "several matrices (\(names)) and none named codes: save the codes as codes")
        }
        return only.value
    }

    private static func codes(from array: NumericArray, subject: String) throws -> [[UInt8]] {
        guard array.dims.count == 2 else {
            throw LabFormatError(subject, "the array has shape \(array.shapeText); codes must be 2-D, classes × bits")
        }
        guard array.dims.allSatisfy({ $0 > 0 }) else {
            throw LabFormatError(subject, "the array has shape \(array.shapeText): \(array.dims[0] == 0 ? "no classes" : "codes of no bits")")
        }
        let (rows, columns) = array.shape
        if let bad = array.values.firstIndex(where: { $0 != 0 && $0 != 1 }) {
            throw LabFormatError(subject, "value \(array.values[bad]) at class \(bad / columns), bit \(bad % columns) is not 0 or 1")
        }
        let codes: [[UInt8]] = (0..<rows).map { r in array.values[(r * columns)..<((r + 1) * columns)].map { $0 == 1 ? 1 : 0 } }
        guard codes.contains(where: { Set($0).count > 1 }) else {
            throw LabFormatError(subject, "every code holds one value throughout (\(rows) × \(columns)): no code flickers, nothing to decode")
        }
        return codes
    }
}
