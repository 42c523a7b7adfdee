/// A bounds-checked little-endian reader over a file's bytes: every read
/// past the end throws an ``LabFormatError`` naming the file and what was being
/// read, so a truncated or corrupt file never crashes an importer.
struct ByteReader {
    /// The bytes read.
    let bytes: [UInt8]
    /// The next byte to read.
    var offset: Int
    /// The file named in errors.
    let subject: String

    /// A reader at `offset` of `bytes`; errors name `subject`.
    init(_ bytes: [UInt8], offset: Int = 0, subject: String) {
        self.bytes = bytes
        self.offset = offset
        self.subject = subject
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// Throws unless `count` more bytes are there; `what` says what they are.
    func need(_ count: Int, _ what: @autoclosure () -> String) throws {
        guard count >= 0, count <= remaining else {
            throw LabFormatError(subject, "\(what()) is truncated (needs \(count) bytes at byte \(offset), \(remaining) left)")
        }
    }

    /// An unsigned little-endian integer of `size` bytes (1 to 8).
    mutating func unsigned(_ size: Int, _ what: @autoclosure () -> String) throws -> UInt64 {
        try need(size, what())
        var value: UInt64 = 0
        for i in 0..<size { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += size
        return value
    }

    /// One byte.
    mutating func u8(_ what: @autoclosure () -> String) throws -> UInt8 { UInt8(try unsigned(1, what())) }

    /// A float64.
    mutating func f64(_ what: @autoclosure () -> String) throws -> Double { Double(bitPattern: try unsigned(8, what())) }

    /// `count` raw bytes.
    mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        try need(count, what())
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// XDF's variable-length integer: one byte giving the width (1, 4 or 8),
    /// then the value in that many bytes.
    mutating func varLength(_ what: @autoclosure () -> String) throws -> Int {
        let width = try u8(what())
        guard width == 1 || width == 4 || width == 8 else {
            throw LabFormatError(subject, "\(what()) has a length field of \(width) bytes at byte \(offset - 1) (XDF allows 1, 4 or 8): not an XDF file, or corrupt")
        }
        let value = try unsigned(Int(width), what())
        guard value <= UInt64(Int.max / 2) else { throw LabFormatError(subject, "\(what()) gives an impossible length \(value)") }
        return Int(value)
    }
}
