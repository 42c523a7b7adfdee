/// Maximum-length sequences (m-sequences) from a linear feedback shift register
/// over GF(2), with the conventions of pyntbci 1.9.0 `stimulus.make_m_sequence`.
///
/// The register has `n = taps.count` cells, `register[0]` being the newest.
/// Each step computes `bit = Σ taps[i]·register[i] mod 2`, shifts the register
/// one cell towards the end (dropping the oldest cell), stores `bit` in
/// `register[0]` and outputs `bit`. After `2ⁿ − 1` steps the sequence is
/// complete. `taps[i]` therefore multiplies the bit output `i + 1` steps
/// earlier; pyntbci writes `1 + x + x⁶` as `[1, 0, 0, 0, 0, 1]`. The seed is the
/// initial register (`nil` = all ones). Only a primitive polynomial gives a true
/// m-sequence (see ``isMaximalLength(taps:)``); like pyntbci, ``make(taps:seed:)``
/// does not check this.
public enum MSequence {
    /// pyntbci's default feedback polynomial, `1 + x + x⁶`.
    public static let defaultTaps: [UInt8] = [1, 0, 0, 0, 0, 1]

    /// The register lengths (polynomial degrees) the generator accepts.
    public static let degrees: ClosedRange<Int> = 1...20

    /// The `2ⁿ − 1` output bits of the register for `taps` started at `seed`.
    public static func make(taps: [UInt8] = defaultTaps, seed: [UInt8]? = nil) throws(CodeGenerationError) -> [UInt8] {
        var register = try Register(taps: taps, seed: seed, degrees: degrees)
        return (0..<register.period).map { _ in register.step() }
    }

    /// Whether `taps` gives a sequence of full period `2ⁿ − 1` (that is, the
    /// polynomial is primitive).
    public static func isMaximalLength(taps: [UInt8]) -> Bool {
        guard var register = try? Register(taps: taps, seed: nil, degrees: degrees) else { return false }
        let start = register.state
        for step in 1...register.period {
            _ = register.step()
            if register.state == start { return step == register.period }
        }
        return false
    }

    /// Validates a polynomial and a seed as `make` does, returning the resolved seed.
    static func checkedSeed(taps: [UInt8], seed: [UInt8]?, degrees: ClosedRange<Int>) throws(CodeGenerationError) -> [UInt8] {
        guard !taps.isEmpty else { throw .emptyPolynomial }
        guard taps.allSatisfy({ $0 <= 1 }) else { throw .nonBinaryPolynomial(taps) }
        guard taps.contains(1) else { throw .zeroPolynomial(taps) }
        guard degrees.contains(taps.count) else { throw .degreeOutOfRange(degree: taps.count, allowed: degrees) }
        let resolved = seed ?? Array(repeating: 1, count: taps.count)
        guard resolved.count == taps.count else { throw .seedLengthMismatch(seedLength: resolved.count, degree: taps.count) }
        guard resolved.allSatisfy({ $0 <= 1 }) else { throw .nonBinarySeed(resolved) }
        guard resolved.contains(1) else { throw .zeroSeed }
        return resolved
    }

    /// The shift register, held as a bit mask: bit `i` is `register[i]`.
    struct Register {
        let tapMask: UInt32
        let fullMask: UInt32
        let period: Int
        private(set) var state: UInt32

        init(taps: [UInt8], seed: [UInt8]?, degrees: ClosedRange<Int>) throws(CodeGenerationError) {
            let resolved = try MSequence.checkedSeed(taps: taps, seed: seed, degrees: degrees)
            tapMask = Self.mask(taps)
            state = Self.mask(resolved)
            fullMask = UInt32((1 << taps.count) - 1)
            period = (1 << taps.count) - 1
        }

        mutating func step() -> UInt8 {
            let bit = UInt32((state & tapMask).nonzeroBitCount & 1)
            state = ((state << 1) & fullMask) | bit
            return UInt8(bit)
        }

        private static func mask(_ values: [UInt8]) -> UInt32 {
            values.enumerated().reduce(0) { $0 | (UInt32($1.element & 1) << UInt32($1.offset)) }
        }
    }
}
