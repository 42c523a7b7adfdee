/// Gold codes of period 63 built from the preferred pair of degree-6
/// m-sequences (x⁶ + x + 1 and x⁶ + x⁵ + x² + x + 1): 65 binary codes with
/// low cross-correlation, the usual noise tags of c-VEP studies.
///
/// ```swift
/// let codes = GoldCodeSet.codes(count: 9)   // 9 codes × 63 bits of 0/1
/// ```
public enum GoldCodeSet {
    /// The period of every code.
    public static let period = 63

    /// The first `count` codes (at most 65): the two m-sequences, then their
    /// XORs at successive shifts.
    ///
    /// ```swift
    /// let codes = GoldCodeSet.codes(count: 36)
    /// ```
    public static func codes(count: Int) -> [[UInt8]] {
        precondition((1...65).contains(count), "a degree-6 Gold family has 65 codes")
        let a = mSequence(taps: [1, 0])
        let b = mSequence(taps: [5, 2, 1, 0])
        var family = [a, b]
        for shift in 0..<period {
            family.append((0..<period).map { a[$0] ^ b[($0 + shift) % period] })
        }
        return Array(family.prefix(count))
    }

    /// An m-sequence of degree 6 with the recurrence s[n+6] = XOR of s[n+t], t in taps.
    static func mSequence(taps: [Int]) -> [UInt8] {
        var s: [UInt8] = [1, 0, 0, 0, 0, 0]
        while s.count < period {
            let n = s.count - 6
            s.append(taps.reduce(0) { $0 ^ s[n + $1] })
        }
        return s
    }
}
