/// The general number syntax of codebook cells (see Protocols/codebook.md),
/// `[+-]digits[.digits][e[+-]digits]`, read from UTF-8 bytes, for cells that
/// are not plain whole numbers (``CodebookLineScanner/Cell/digits`` covers those).
/// Used by ``CodebookTextReader``.
enum CodebookNumber {
    /// A finite decimal number, or nil. Whole numbers written with at most 15
    /// integer digits and no exponent (`1.0`, `-0`, `+2.000`) are converted
    /// here; other valid numbers by `Double`'s parser.
    static func decimal(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let end = range.upperBound
        let negative = index < end && bytes[index] == UInt8(ascii: "-")
        if index < end && (negative || bytes[index] == UInt8(ascii: "+")) { index += 1 }
        // The mantissa: a run of digits and dots, with at least one digit and at most one dot.
        var whole = 0, wholeDigits = 0, digits = 0, dots = 0, fractionIsZero = true
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                dots += 1
            } else if byte &- 48 < 10 {
                digits += 1
                if dots == 0 {
                    whole = whole &* 10 &+ Int(byte &- 48)
                    wholeDigits += 1
                } else if byte != UInt8(ascii: "0") {
                    fractionIsZero = false
                }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0, dots <= 1 else { return nil }
        if index == end && wholeDigits <= 15 && fractionIsZero {
            return negative ? -Double(whole) : Double(whole)
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < end && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard index < end else { return nil }
            while index < end && bytes[index] &- 48 < 10 { index += 1 }
        }
        guard index == end else { return nil }
        let text = String(decoding: bytes[range], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
