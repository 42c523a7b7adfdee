import Foundation

/// The numeric variables of a MATLAB MAT-file, level 5 (MATLAB's `save`
/// up to `-v7`, SciPy's `savemat`), written little-endian: a 128-byte
/// header, then one data element per variable, each an `miMATRIX` or an
/// `miCOMPRESSED` (zlib) holding one. Real numeric and logical arrays of
/// any dimension are read, column-major to C order, and text (a char
/// matrix's rows, a cell array of strings) for channel names; other cells,
/// structs, sparse and complex arrays are passed over (``skipped`` names
/// them). Version 7.3 files are HDF5 and are refused with a line saying so.
/// Layout after MathWorks' *MAT-File Format* (level 5).
struct MATFile {
    /// The numeric variables by name.
    var arrays: [String: NumericArray] = [:]
    /// Text variables: a char matrix's rows, or a cell array's strings.
    var texts: [String: [String]] = [:]
    /// Variables that are neither real numeric arrays nor text, with their MATLAB class.
    var skipped: [String: String] = [:]

    /// The header's text starts so in every level-5 file.
    static let magic = Array("MATLAB 5.0 MAT-file".utf8)

    private static let miMATRIX: UInt32 = 14, miCOMPRESSED: UInt32 = 15
    private static let classNames = [1: "cell", 2: "struct", 3: "object", 4: "char", 5: "sparse"]

    /// Reads `bytes`, a whole file; `name` names it in errors.
    init(bytes: [UInt8], name: String) throws {
        guard bytes.count >= 128 else { throw LabFormatError(name, "not a MAT-file (\(bytes.count) bytes, shorter than its 128-byte header)") }
        let text = String(decoding: bytes.prefix(116), as: UTF8.self)
        if text.hasPrefix("MATLAB 7.3 MAT-file") {
            throw LabFormatError(name, "a MATLAB 7.3 MAT-file is HDF5, which noisetag does not read: save it with -v7 (or scipy.io.savemat)")
        }
        guard bytes.starts(with: Self.magic) else { throw LabFormatError(name, "not a level-5 MAT-file (no \"MATLAB 5.0 MAT-file\" header)") }
        guard bytes[126] == UInt8(ascii: "I"), bytes[127] == UInt8(ascii: "M") else {
            throw LabFormatError(name, "a big-endian MAT-file, which noisetag does not read")
        }
        var reader = ByteReader(bytes, offset: 128, subject: name)
        while reader.remaining >= 8 {
            let (type, size, small) = try Self.tag(&reader)
            let content = try reader.take(size, "variable data (\(size) bytes)")
            if !small, type != Self.miCOMPRESSED { _ = try? reader.take((8 - size % 8) % 8, "padding") }
            // Compressed elements are not padded, but a writer that pads them leaves zeros, which no tag starts with.
            while type == Self.miCOMPRESSED, reader.offset % 8 != 0, reader.remaining > 0, reader.bytes[reader.offset] == 0 { reader.offset += 1 }
            var element = content
            var elementType = type
            if type == Self.miCOMPRESSED {
                guard content.count > 6 else { throw LabFormatError(name, "a compressed variable of \(content.count) bytes is cut short") }
                let (inflated, _) = try Gzip.inflate(Data(content.dropFirst(2).dropLast(4)), name: name, stream: "zlib")
                var inner = ByteReader([UInt8](inflated), subject: name)
                let (innerType, innerSize, _) = try Self.tag(&inner)
                element = try inner.take(innerSize, "compressed variable data (\(innerSize) bytes)")
                elementType = innerType
            }
            guard elementType == Self.miMATRIX else { continue }   // the subsystem's data and the like
            try read(matrix: [UInt8](element), name: name)
        }
    }

    /// One `miMATRIX` element's content: flags, dimensions, name, real part.
    private mutating func read(matrix bytes: [UInt8], name file: String) throws {
        var reader = ByteReader(bytes, subject: file)
        let flags = try Self.element(&reader, "array flags")
        guard flags.values.count >= 1 else { throw LabFormatError(file, "a variable without array flags") }
        let flagWord = UInt32(flags.values[0])
        let mxClass = Int(flagWord & 0xFF), isComplex = flagWord & 0x800 != 0
        let dims = try Self.element(&reader, "dimensions").values.map { Int($0) }
        let nameElement = try Self.element(&reader, "array name")
        let variable = String(decoding: nameElement.raw, as: UTF8.self)
        if let text = try Self.text(mxClass: mxClass, dims: dims, reader: &reader, name: file) {
            texts[variable] = text
            return
        }
        guard (6...15).contains(mxClass), !isComplex else {
            skipped[variable] = isComplex ? "complex" : (Self.classNames[mxClass] ?? "class \(mxClass)")
            return
        }
        guard dims.count >= 2, dims.allSatisfy({ $0 >= 0 && $0 < 1 << 31 }),
              dims.reduce(1, { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }) < 1 << 31 else {
            throw LabFormatError("\(file): \(variable)", "dimensions \(dims) are not ones noisetag can hold")
        }
        let real = try Self.element(&reader, "the values of \(variable)")
        let count = dims.reduce(1, *)
        guard real.values.count == count else {
            throw LabFormatError("\(file): \(variable)", "\(real.values.count) values for dimensions \(dims.map(String.init).joined(separator: " × "))")
        }
        arrays[variable] = NumericArray(dims: dims, values: NumericArray.cOrder(fromColumnMajor: real.values, dims: dims))
    }

    /// The rows of a char matrix, or the strings of a cell array whose every
    /// cell is a char row; nil for anything else.
    private static func text(mxClass: Int, dims: [Int], reader: inout ByteReader, name: String) throws -> [String]? {
        if mxClass == 4, dims.count == 2 {
            let codes = try element(&reader, "characters").values
            let (rows, columns) = (dims[0], dims[1])
            guard codes.count == rows * columns else { return nil }
            return (0..<rows).map { r in
                let scalars = (0..<columns).compactMap { Unicode.Scalar(UInt32(max(0, codes[r + $0 * rows]))) }
                return String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
            }
        }
        guard mxClass == 1 else { return nil }
        var strings: [String] = []
        while reader.remaining >= 8 {
            let (type, size, _) = try tag(&reader)
            let cell = try reader.take(size, "a cell")
            _ = try? reader.take((8 - size % 8) % 8, "padding")
            guard type == miMATRIX else { return nil }
            var inner = MATFile()
            try inner.read(matrix: Array(cell), name: name)
            guard let rows = inner.texts[""], rows.count <= 1 else { return nil }
            strings.append(rows.first ?? "")
        }
        return strings
    }

    private init() {}

    /// A data element's tag: its type, its size in bytes and whether it is
    /// the small format (data packed into the tag's second word).
    private static func tag(_ reader: inout ByteReader) throws -> (type: UInt32, size: Int, small: Bool) {
        let first = UInt32(try reader.unsigned(4, "a data element's tag"))
        if first >> 16 != 0 { return (first & 0xFFFF, Int(first >> 16), true) }
        return (first, Int(try reader.unsigned(4, "a data element's size")), false)
    }

    /// A numeric data element, read as doubles (and its raw bytes), with its padding.
    private static func element(_ reader: inout ByteReader, _ what: String) throws -> (values: [Double], raw: ArraySlice<UInt8>) {
        let (type, size, small) = try tag(&reader)
        if small, size > 4 { throw LabFormatError(reader.subject, "\(what): a small data element of \(size) bytes (at most 4)") }
        let raw = try reader.take(small ? 4 : size, what)
        if !small { _ = try? reader.take((8 - size % 8) % 8, "padding") }
        let data = raw.prefix(size)
        let width: Int
        switch type {
        case 1, 2, 16: width = 1      // miINT8, miUINT8, miUTF8
        case 3, 4, 17: width = 2      // miINT16, miUINT16, miUTF16
        case 5, 6, 7, 18: width = 4   // miINT32, miUINT32, miSINGLE, miUTF32
        case 9, 12, 13: width = 8     // miDOUBLE, miINT64, miUINT64
        default: throw LabFormatError(reader.subject, "\(what): data type \(type) is not a numeric MAT-file type")
        }
        guard size % width == 0 else { throw LabFormatError(reader.subject, "\(what): \(size) bytes are not whole values of \(width) bytes") }
        var values = [Double](repeating: 0, count: size / width)
        var bytes = ByteReader(Array(data), subject: reader.subject)
        for i in values.indices {
            let word = try bytes.unsigned(width, what)
            switch type {
            case 1: values[i] = Double(Int8(bitPattern: UInt8(word)))
            case 3: values[i] = Double(Int16(bitPattern: UInt16(word)))
            case 5: values[i] = Double(Int32(bitPattern: UInt32(word)))
            case 7: values[i] = Double(Float(bitPattern: UInt32(word)))
            case 9: values[i] = Double(bitPattern: word)
            case 12: values[i] = Double(Int64(bitPattern: word))
            default: values[i] = Double(word)
            }
        }
        return (values, data)
    }
}
