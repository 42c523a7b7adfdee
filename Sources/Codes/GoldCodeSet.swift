/// Gold codes of period 63 built from the preferred pair of degree-6
/// m-sequences (x⁶ + x + 1 and x⁶ + x⁵ + x² + x + 1): 65 binary codes with
/// low cross-correlation, the usual noise tags of c-VEP studies.
public enum GoldCodeSet {
    /// The period of every code.
    public static let period = 63

    /// The first `count` codes (at most 65): the two m-sequences, then their
    /// XORs at successive shifts.
    public static func codes(count: Int) -> [[UInt8]] {
        precondition((1...65).contains(count), "a degree-6 Gold family has 65 codes")
        // The same registers as GoldCodes, read from six bits earlier: the
        // sequences start with their seeds 1 0 0 0 0 0.
        let taps1: [UInt8] = [0, 0, 0, 0, 1, 1], taps2: [UInt8] = [1, 0, 0, 1, 1, 1], seed: [UInt8] = [0, 0, 0, 0, 0, 1]
        guard let a = try? MSequence.make(taps: taps1, seed: seed), let b = try? MSequence.make(taps: taps2, seed: seed),
              let xors = try? GoldCodes.make(taps1: taps1, taps2: taps2, seed1: seed, seed2: seed) else {
            preconditionFailure("the degree-6 preferred pair is valid")
        }
        let family = [a, b] + xors.codes
        return family.prefix(count).map { code in (0..<period).map { code[($0 + period - 6) % period] } }
    }
}
