/// Summary figures of a codebook, as `noisetag codes inspect` prints them.
///
/// Correlations are computed on bipolar values (state 0 → −1, any other
/// state → +1), cyclically and normalised by the length `L`:
/// `ρ(a, b, τ) = (1/L) Σₜ a[t] · b[(t + τ) mod L]`, so 1 means identical.
/// The *worst* value is the highest one, since a decoder confuses codes whose
/// correlation is high:
/// - ``worstOffPeakAutocorrelation``: max over codes and lags `τ = 1 ..< L`
///   of `ρ(a, a, τ)` (exactly −1/L for an m-sequence);
/// - ``worstCrossCorrelation``: max over all pairs of different codes and all
///   lags `τ = 0 ..< L` of `ρ(a, b, τ)`.
/// Computed with a `CyclicCorrelator` (table look-up, all lags at once):
/// 65 × 126 takes milliseconds, 513 × 1022 about half a second (release build).
public struct CodebookStatistics: Hashable, Sendable, Codable {
    /// Lowest, mean and highest of a per-code figure.
    public struct Summary: Hashable, Sendable, Codable {
        /// The lowest value.
        public var min: Double
        /// The arithmetic mean.
        public var mean: Double
        /// The highest value.
        public var max: Double
    }

    /// The number of codes.
    public let count: Int
    /// The number of states per code.
    public let length: Int
    /// The fraction of non-zero ("on") states per code, summarised over codes.
    public let balance: Summary
    /// The highest off-peak cyclic autocorrelation; `nil` when codes have length 1.
    public let worstOffPeakAutocorrelation: Double?
    /// The highest cyclic cross-correlation between two codes; `nil` for a single code.
    public let worstCrossCorrelation: Double?

    /// Computes the statistics of `codebook`.
    public init(_ codebook: Codebook) {
        let n = codebook.length
        count = codebook.count
        length = n
        let ones = codebook.codes.map { code in code.lazy.filter { $0 != 0 }.count }
        let fractions = ones.map { Double($0) / Double(n) }
        balance = Summary(min: fractions.min() ?? 0,
                          mean: fractions.reduce(0, +) / Double(fractions.count),
                          max: fractions.max() ?? 0)
        // Codes a, b disagree at d(τ) = |a| + |b| − 2·c(τ) positions, c(τ) counting
        // those where both are on; the fewest disagreements give the highest
        // correlation (L − 2d) / L.
        var fewestAuto = Int.max, fewestCross = Int.max
        let correlator = CyclicCorrelator(length: n)
        let groups = codebook.codes.map(correlator.groups(of:))
        for (j, code) in codebook.codes.enumerated() {
            correlator.load(code)
            if n > 1 {
                fewestAuto = min(fewestAuto, 2 * ones[j] - 2 * correlator.highestCount(groups[j], lags: 1..<n))
            }
            for i in 0..<j {
                fewestCross = min(fewestCross, ones[i] + ones[j] - 2 * correlator.highestCount(groups[i], lags: 0..<n))
            }
        }
        let correlation = { (d: Int) -> Double? in d == Int.max ? nil : Double(n - 2 * d) / Double(n) }
        worstOffPeakAutocorrelation = correlation(fewestAuto)
        worstCrossCorrelation = correlation(fewestCross)
    }
}
