/// Gold codes from a preferred pair of m-sequences, with the conventions of
/// pyntbci 1.9.0 `stimulus.make_gold_codes`.
///
/// With `u = MSequence.make(taps: taps1, seed: seed1)` and
/// `v = MSequence.make(taps: taps2, seed: seed2)` (both of length `N = 2ⁿ − 1`),
/// code `k` (for `k = 0 ..< N`) is `u[t] XOR v[(t + k) mod N]`, that is `u`
/// XOR `v` cyclically advanced by `k` bits. Asking for `includingMSequences`
/// appends `u` and `v` themselves, giving the full Gold family of `N + 2` codes
/// (65 for degree 6); the first `N` codes stay pyntbci's.
public enum GoldCodes {
    /// pyntbci's default first polynomial, `1 + x + x⁶`.
    public static let defaultTaps1: [UInt8] = [1, 0, 0, 0, 0, 1]

    /// pyntbci's default second polynomial, `[1, 1, 0, 0, 1, 1]`; with
    /// ``defaultTaps1`` it forms a preferred pair (three-valued correlation
    /// −17/63, −1/63, 15/63).
    public static let defaultTaps2: [UInt8] = [1, 1, 0, 0, 1, 1]

    /// The register lengths (polynomial degrees) accepted for Gold codes.
    public static let degrees: ClosedRange<Int> = 1...10

    /// The Gold codes of the pair `taps1`, `taps2` (seeds `nil` = all ones).
    public static func make(
        taps1: [UInt8] = defaultTaps1,
        taps2: [UInt8] = defaultTaps2,
        seed1: [UInt8]? = nil,
        seed2: [UInt8]? = nil,
        includingMSequences: Bool = false
    ) throws(CodeGenerationError) -> Codebook {
        guard taps1.count == taps2.count else { throw .degreesDiffer(taps1.count, taps2.count) }
        _ = try MSequence.checkedSeed(taps: taps1, seed: seed1, degrees: degrees)
        _ = try MSequence.checkedSeed(taps: taps2, seed: seed2, degrees: degrees)
        let u = try MSequence.make(taps: taps1, seed: seed1)
        let v = try MSequence.make(taps: taps2, seed: seed2)
        let n = u.count
        var codes = (0..<n).map { k in (0..<n).map { t in u[t] ^ v[(t + k) % n] } }
        if includingMSequences { codes += [u, v] }
        return Codebook(validatedCodes: codes)
    }
}
