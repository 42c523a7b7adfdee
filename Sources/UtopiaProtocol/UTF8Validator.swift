/// Strict UTF-8 validation (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF) that reports where the first bad byte is.
///
/// Pure Swift, so it behaves the same on every platform and OS version.
enum UTF8Validator {
    /// The index of the first byte that does not start or continue a valid
    /// sequence, or nil when all of `bytes` is valid UTF-8.
    // Wire boundary: checks a received payload's text bytes in place, without copying them.
    static func firstInvalidIndex(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let end = bytes.count
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            guard end - index >= length else { return index }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return index }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}
