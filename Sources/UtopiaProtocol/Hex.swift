/// The project's one hex codec: how wire bytes are written into the text
/// files of a recording (`decoder.csv`, `decoder-input.csv`, the states
/// cells) and read back. Writing gives two lower-case digits a byte;
/// reading takes either case and refuses an odd length or any other
/// character.
public enum Hex {
    /// The lower-case ASCII digit of a nibble (0…15).
    @inlinable
    public static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &- 10 &+ nibble
    }

    /// The value of one ASCII hex digit of either case; nil for anything else.
    @inlinable
    public static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }

    /// Appends `byte` as two lower-case digits.
    @inlinable
    public static func append(byte: UInt8, to out: inout [UInt8]) {
        out.append(digit(byte >> 4))
        out.append(digit(byte & 0x0F))
    }

    /// Appends every byte of `bytes` as two lower-case digits.
    @inlinable
    public static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        var index = out.count
        out.append(contentsOf: repeatElement(0, count: bytes.count * 2))
        for byte in bytes {
            out[index] = digit(byte >> 4)
            out[index + 1] = digit(byte & 0x0F)
            index += 2
        }
    }

    /// `bytes` as a string of lower-case digits.
    public static func string(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        append(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes that the ASCII `digits` spell (two a byte, either case);
    /// nil for an odd length or a character that is not a hex digit.
    @inlinable
    public static func bytes<Digits: Collection<UInt8>>(_ digits: Digits) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for c in digits {
            guard let v = value(c) else { return nil }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        return out
    }
}
