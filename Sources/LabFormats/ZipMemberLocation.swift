/// Where a zip member's stored (compressed) bytes lie in its archive, read
/// from the central directory (zip64 too) and the member's local header
/// (PKWARE APPNOTE 4.3). It lets a deflated `.npz` member be inflated from
/// exactly its own bytes: ZIPFoundation 0.9.20 reads past a damaged deflate
/// stream to the end of the file and then loops there for ever.
enum ZipMemberLocation {
    /// The byte range of `path`'s stored data in `zip`; nil when the
    /// directory cannot be read or names no such member, or its data run
    /// past the end of the archive.
    static func range(of path: String, in zip: [UInt8]) -> Range<Int>? {
        func number(_ at: Int, _ width: Int) -> Int? {
            guard at >= 0, width <= 8, at <= zip.count - width else { return nil }
            let value = (0..<width).reduce(UInt64(0)) { $0 | UInt64(zip[at + $1]) << (8 * UInt64($1)) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }
        // The end-of-central-directory record: the last one in the final 22 + 65,535 bytes.
        var end = zip.count - 22
        while end >= max(0, zip.count - 22 - 65_535), number(end, 4) != 0x0605_4B50 { end -= 1 }
        guard end >= 0, number(end, 4) == 0x0605_4B50, var count = number(end + 10, 2), var position = number(end + 16, 4) else { return nil }
        if count == 0xFFFF || position == 0xFFFF_FFFF {
            // Zip64: a locator just before it points at the zip64 end record.
            guard number(end - 20, 4) == 0x0706_4B50, let record = number(end - 12, 8), number(record, 4) == 0x0606_4B50,
                  let entries = number(record + 32, 8), let start = number(record + 48, 8) else { return nil }
            (count, position) = (entries, start)
        }
        for _ in 0..<min(count, zip.count / 46) {
            guard number(position, 4) == 0x0201_4B50, var size = number(position + 20, 4),
                  let nameLength = number(position + 28, 2), let extraLength = number(position + 30, 2),
                  let commentLength = number(position + 32, 2), var local = number(position + 42, 4),
                  position + 46 + nameLength + extraLength <= zip.count else { return nil }
            let name = String(decoding: zip[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            if name == path {
                if size == 0xFFFF_FFFF || local == 0xFFFF_FFFF {
                    // The zip64 extra field (id 1) holds, in order, those of the sizes and offset that overflowed.
                    var field = position + 46 + nameLength
                    while field + 4 <= position + 46 + nameLength + extraLength, number(field, 2) != 1 {
                        field += 4 + (number(field + 2, 2) ?? 0)
                    }
                    guard number(field, 2) == 1 else { return nil }
                    var next = field + 4 + (number(position + 24, 4) == 0xFFFF_FFFF ? 8 : 0)
                    if size == 0xFFFF_FFFF { guard let wide = number(next, 8) else { return nil }; size = wide; next += 8 }
                    if local == 0xFFFF_FFFF { guard let wide = number(next, 8) else { return nil }; local = wide }
                }
                guard number(local, 4) == 0x0403_4B50, let localName = number(local + 26, 2),
                      let localExtra = number(local + 28, 2) else { return nil }
                let start = local + 30 + localName + localExtra
                guard start <= zip.count, size <= zip.count - start else { return nil }
                return start..<(start + size)
            }
            position += 46 + nameLength + extraLength + commentLength
        }
        return nil
    }
}
