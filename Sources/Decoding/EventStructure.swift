/// The Toeplitz structure matrix of one code's events (rows: event × lag,
/// columns: samples; row (e, l) is 1 at each onset of event e delayed by
/// `firstLag + l`), kept as its onsets: the products a reconvolution fit
/// needs are computed from the onsets alone, in time proportional to the
/// onset pairs and lags rather than to lags² × samples as a dense product.
struct EventStructure: Sendable {
    let onsets: [[Int]]
    let samples: Int
    let firstLag: Int
    let lagCount: Int

    var features: Int { onsets.count * lagCount }

    /// The valid lags `l` (0 ≤ l < lagCount) at which onset `o` falls inside the trial.
    private func lags(of o: Int) -> Range<Int> {
        let lo = max(0, -(o + firstLag)), hi = min(lagCount, samples - (o + firstLag))
        return lo < hi ? lo..<hi : 0..<0
    }

    /// M·Mᵀ (features × features).
    func gram() -> Matrix { Self.weightedGram([(self, 1)]) }

    /// `Σ wᵢ · MᵢMᵢᵀ` over structures with the same events, lags, first lag
    /// and length (a fit's classes weighted by their trial counts).
    ///
    /// For a pair of onsets o (event a) and p (event b), row (a, l) meets
    /// row (b, l + o − p) at the same sample for every l where both lags and
    /// the sample are valid: a run along one diagonal of block (a, b), kept
    /// as +w/−w marks at its ends. The marks of every structure add up
    /// first, and each diagonal is summed once at the end, so the cost is
    /// the onset pairs of every structure plus one pass over the matrix,
    /// not one pass per structure.
    static func weightedGram(_ terms: [(EventStructure, Double)]) -> Matrix {
        guard let shape = terms.first?.0 else { return Matrix(rows: 0, columns: 0) }
        let lags = shape.lagCount, events = shape.onsets.count
        let diagonal = lags + 1, block = (2 * lags - 1) * diagonal
        var marks = [Double](repeating: 0, count: events * events * block)
        for (m, weight) in terms {
            precondition(m.lagCount == lags && m.onsets.count == events && m.firstLag == shape.firstLag && m.samples == shape.samples,
                         "the structures of one Gram share their events, lags and length")
            for a in 0..<events {
                for b in 0..<events {
                    let other = m.onsets[b], base = (a * events + b) * block
                    var first = 0
                    for o in m.onsets[a] {
                        while first < other.count, other[first] <= o - lags { first += 1 }
                        let valid = m.lags(of: o)
                        var j = first
                        while j < other.count, other[j] < o + lags {
                            let shift = o - other[j]                      // row (b, l + shift)
                            let lo = max(valid.lowerBound, -shift), hi = min(valid.upperBound, lags - shift)
                            if lo < hi {
                                let d = base + (shift + lags - 1) * diagonal
                                marks[d + lo] += weight
                                marks[d + hi] -= weight
                            }
                            j += 1
                        }
                    }
                }
            }
        }
        var g = Matrix(rows: events * lags, columns: events * lags)
        for a in 0..<events {
            for b in 0..<events {
                let base = (a * events + b) * block
                for shift in (1 - lags)..<lags {
                    let d = base + (shift + lags - 1) * diagonal
                    var running = 0.0
                    for l in max(0, -shift)..<min(lags, lags - shift) {
                        running += marks[d + l]
                        if running != 0 { g.elements[(a * lags + l) * g.columns + b * lags + l + shift] = running }
                    }
                }
            }
        }
        return g
    }

    /// Each row's sum: how many of the event's delayed onsets fall inside the trial.
    func rowSums() -> [Double] {
        var sums = [Double](repeating: 0, count: features)
        for (e, list) in onsets.enumerated() {
            for o in list { for l in lags(of: o) { sums[e * lagCount + l] += 1 } }
        }
        return sums
    }

    /// X·Mᵀ for X of `x.rows` channels × `samples` (channels × features).
    func product(_ x: Matrix) -> Matrix {
        var out = Matrix(rows: x.rows, columns: features)
        addProduct(x, to: &out)
        return out
    }

    /// Adds X·Mᵀ to `out` (channels × features) in place: channel by
    /// channel, so that one row of X and one of `out` stay in cache while
    /// every onset adds its window (through spans: bounds-checked, without
    /// the array's copy-on-write check at each element).
    func addProduct(_ x: Matrix, to out: inout Matrix) {
        let xs = x.elements.span
        let columns = out.columns
        var outs = out.elements.mutableSpan
        let windows = onsets.map { $0.map { ($0 + firstLag, lags(of: $0)) } }
        for c in 0..<x.rows {
            for (e, list) in windows.enumerated() {
                let target = c * columns + e * lagCount
                for (start, valid) in list where !valid.isEmpty {
                    let row = c * samples + start
                    let window = xs.extracting((row + valid.lowerBound)..<(row + valid.upperBound))
                    var sums = outs.extracting((target + valid.lowerBound)..<(target + valid.upperBound))
                    for i in 0..<window.count { sums[i] += window[i] }
                }
            }
        }
    }

    /// The matrix itself, dense: the reference the sparse products are tested against.
    func dense() -> Matrix {
        var m = Matrix(rows: features, columns: samples)
        for (e, list) in onsets.enumerated() {
            for o in list { for l in lags(of: o) { m.elements[(e * lagCount + l) * samples + o + firstLag + l] = 1 } }
        }
        return m
    }
}
