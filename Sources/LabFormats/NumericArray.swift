import Foundation
import ZIPFoundation

/// An array of numbers of any number of dimensions (0 for a scalar), as
/// doubles in C (row-major) order: read from a NumPy `.npy` (``init(npy:subject:)``)
/// or a MATLAB MAT-file (``MATFile``).
struct NumericArray: Sendable {
    /// The size of each dimension, outermost first; empty for a scalar.
    var dims: [Int]
    /// Every value, the last dimension varying fastest.
    var values: [Double]

    /// Rows and columns of a 2-D array.
    var shape: (rows: Int, columns: Int) { (dims.first ?? 1, dims.count > 1 ? dims[1] : 1) }

    /// How the dimensions read in errors: `(100, 8, 2520)`.
    var shapeText: String { "(" + dims.map(String.init).joined(separator: ", ") + ")" }

    /// An array of `dims` holding `values` in C order.
    init(dims: [Int], values: [Double]) {
        self.dims = dims
        self.values = values
    }

    /// Parses a `.npy` (format versions 1 to 3): the magic `\x93NUMPY`, a
    /// version, a header dictionary with `descr`, `fortran_order` and
    /// `shape`, then the data (`|u1 |i1 <i2 <u2 <i4 <u4 <i8 <u8 <f4 <f8` or bool).
    /// `subject` names the file (or zip entry) in errors.
    init(npy bytes: [UInt8], subject: String) throws {
        var (descr, fortran, sizes, reader) = try Self.npyHeader(bytes, subject: subject)
        let code = descr.replacingOccurrences(of: "=", with: "<")
        let size: Int
        switch code {
        case "|u1", "<u1", "|i1", "<i1", "|b1", "<b1": size = 1
        case "<i2", "<u2": size = 2
        case "<i4", "<u4", "<f4": size = 4
        case "<i8", "<u8", "<f8": size = 8
        default: throw LabFormatError(subject, "dtype \(descr) is not supported (|u1 |i1 <i2 <u2 <i4 <u4 <i8 <u8 <f4 <f8 or bool)")
        }
        let count = sizes.reduce(1, *)
        try reader.need(count * size, "the array data (\(sizes.map(String.init).joined(separator: " × ")) of \(descr))")
        var values = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let raw = try reader.unsigned(size, "the array data")
            switch code {
            case "|i1", "<i1": values[i] = Double(Int8(bitPattern: UInt8(raw)))
            case "<i2": values[i] = Double(Int16(bitPattern: UInt16(raw)))
            case "<i4": values[i] = Double(Int32(bitPattern: UInt32(raw)))
            case "<i8": values[i] = Double(Int64(bitPattern: raw))
            case "<f4": values[i] = Double(Float(bitPattern: UInt32(raw)))
            case "<f8": values[i] = Double(bitPattern: raw)
            default: values[i] = Double(raw)
            }
        }
        if fortran { values = Self.cOrder(fromColumnMajor: values, dims: sizes) }
        self.dims = sizes
        self.values = values
    }

    /// The `.npy` members of the NumPy `.npz` at `url` in the archive's
    /// order (`X.npy` → `X`), their bytes, each read or with the error that says why not
    /// (only a member that is needed must read). Throws when the archive
    /// cannot be read or a member extracted; `name` names the file in errors.
    /// Read from the file, not from memory: ZIPFoundation's in-memory
    /// archive traps on some damaged archives. A deflated member is inflated
    /// from its own bytes (``ZipMemberLocation``): ZIPFoundation 0.9.20's
    /// inflate never ends on a damaged stream that runs to the file's end.
    static func npzMembers(_ url: URL, name: String) throws -> [(key: String, bytes: [UInt8], array: Result<NumericArray, LabFormatError>)] {
        let archive: Archive
        do { archive = try Archive(url: url, accessMode: .read) } catch {
            let why = (error as? Archive.ArchiveError) == .missingEndOfCentralDirectoryRecord
                ? "no zip directory at its end (not a zip file, or cut short)" : "\(error)"
            throw LabFormatError(name, "not a readable .npz (zip) file: \(why)")
        }
        var members: [(key: String, bytes: [UInt8], array: Result<NumericArray, LabFormatError>)] = []
        var file: [UInt8]?
        for entry in archive where entry.type == .file && entry.path.hasSuffix(".npy") {
            let subject = "\(name): \(entry.path)"
            var content = Data()
            if entry.isCompressed {
                if file == nil { file = [UInt8]((try? Data(contentsOf: url)) ?? Data()) }
                guard let bytes = file, let range = ZipMemberLocation.range(of: entry.path, in: bytes) else {
                    throw LabFormatError(subject, "cannot extract: the zip directory does not say where its data lie, or they run past the file's end")
                }
                let crc: UInt32
                (content, crc) = try Gzip.inflate(Data(bytes[range]), name: subject, stream: "deflate")
                guard crc == entry.checksum else { throw LabFormatError(subject, "cannot extract: its checksum does not match its data") }
            } else {
                do {
                    _ = try archive.extract(entry, skipCRC32: false) { content.append($0) }
                } catch {
                    throw LabFormatError(subject, "cannot extract: \(error)")
                }
            }
            let array: Result<NumericArray, LabFormatError>
            let bytes = [UInt8](content)
            do { array = .success(try NumericArray(npy: bytes, subject: subject)) } catch let error as LabFormatError {
                array = .failure(error)
            } catch {
                array = .failure(LabFormatError(subject, "\(error)"))
            }
            members.append((String(entry.path.dropLast(4)), bytes, array))
        }
        guard !members.isEmpty else { throw LabFormatError(name, "the .npz holds no .npy array") }
        return members
    }

    /// The texts of a `.npy` of strings (`<Un`, UTF-32, or `|Sn`, bytes as
    /// UTF-8), in C order, each without its padding: channel names as
    /// `np.array(["Oz", "Pz"])` stores them.
    static func texts(npy bytes: [UInt8], subject: String) throws -> [String] {
        var (descr, _, dims, reader) = try npyHeader(bytes, subject: subject)
        let kind = descr.dropFirst().first, width = Int(descr.dropFirst(2)) ?? 0
        guard descr.count > 2, kind == "U" || kind == "S", width > 0, width < 1 << 16 else {
            throw LabFormatError(subject, "dtype \(descr) is not text (<Un or |Sn)")
        }
        let unit = kind == "U" ? 4 : 1
        return try (0..<dims.reduce(1, *)).map { _ in
            let item = try reader.take(width * unit, "the array's texts")
            if unit == 1 { return String(decoding: item.prefix { $0 != 0 }, as: UTF8.self) }
            var scalars = String.UnicodeScalarView()
            for i in stride(from: item.startIndex, to: item.endIndex, by: 4) {
                let code = UInt32(item[i]) | UInt32(item[i + 1]) << 8 | UInt32(item[i + 2]) << 16 | UInt32(item[i + 3]) << 24
                guard code != 0 else { break }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            }
            return String(scalars)
        }
    }

    /// A `.npy`'s header: its `descr`, order and shape, and a reader at its data.
    private static func npyHeader(_ bytes: [UInt8], subject: String) throws -> (descr: String, fortran: Bool, dims: [Int], reader: ByteReader) {
        var reader = ByteReader(bytes, subject: subject)
        guard bytes.count >= 10, bytes.prefix(6).elementsEqual([0x93] + Array("NUMPY".utf8)) else {
            throw LabFormatError(subject, "not a NumPy .npy array (no \\x93NUMPY magic)")
        }
        reader.offset = 6
        let major = try reader.u8("the .npy version")
        _ = try reader.u8("the .npy version")
        let headerLength: Int
        switch major {
        case 1: headerLength = Int(try reader.unsigned(2, "the .npy header length"))
        case 2, 3: headerLength = Int(try reader.unsigned(4, "the .npy header length"))
        default: throw LabFormatError(subject, ".npy format version \(major) is not supported (1 to 3 are)")
        }
        let header = String(decoding: try reader.take(headerLength, "the .npy header"), as: UTF8.self)
        guard let descr = field("descr", in: header)?.trimmingCharacters(in: CharacterSet(charactersIn: "'\" ")) else {
            throw LabFormatError(subject, "the .npy header has no 'descr'")
        }
        let fortran = field("fortran_order", in: header)?.contains("True") ?? false
        guard let shapeText = header.range(of: "'shape'").flatMap({ header[$0.upperBound...].firstRange(of: #/\(([^)]*)\)/#) }) else {
            throw LabFormatError(subject, "the .npy header has no 'shape'")
        }
        let texts = header[shapeText].dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let sizes = texts.compactMap { Int($0) }
        guard sizes.count == texts.count, sizes.allSatisfy({ $0 >= 0 && $0 < 1 << 31 }),
              sizes.reduce(1, { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }) < 1 << 31 else {
            throw LabFormatError(subject, "the array's shape (\(texts.joined(separator: ", "))) is not one noisetag can hold")
        }
        return (descr, fortran, sizes, reader)
    }

    /// `values` stored with the first index varying fastest (Fortran, MATLAB), in C order.
    static func cOrder(fromColumnMajor values: [Double], dims: [Int]) -> [Double] {
        guard dims.count > 1, !values.isEmpty else { return values }
        var cOrder = values
        var index = [Int](repeating: 0, count: dims.count)  // the position of values[i], first dimension fastest
        for i in values.indices {
            var c = 0
            for d in 0..<dims.count { c = c * dims[d] + index[d] }
            cOrder[c] = values[i]
            for d in 0..<dims.count {
                index[d] += 1
                if index[d] < dims[d] { break }
                index[d] = 0
            }
        }
        return cOrder
    }

    /// The raw text after `'key':` up to the next comma outside brackets.
    private static func field(_ key: String, in header: String) -> String? {
        guard let range = header.range(of: "'\(key)':") else { return nil }
        let rest = header[range.upperBound...]
        return String(rest.prefix { $0 != "," && $0 != "}" })
    }
}
