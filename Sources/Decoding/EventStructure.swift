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
    func gram() -> Matrix {
        var g = Matrix(rows: features, columns: features)
        addGram(weight: 1, to: &g)
        return g
    }

    /// Adds `weight` · M·Mᵀ to `g` (features × features) in place.
    func addGram(weight: Double, to g: inout Matrix) {
        let lags = lagCount, events = onsets.count
        // For a pair of onsets o (event a) and p (event b), row (a, l) meets row (b, l + o − p)
        // at the same sample for every l where both lags and the sample are valid: a run along
        // one diagonal, kept as +1/−1 marks and summed at the end.
        var marks = [Int](repeating: 0, count: (2 * lags - 1) * (lags + 1))
        for a in 0..<events {
            for b in 0..<events {
                for i in marks.indices { marks[i] = 0 }
                let other = onsets[b]
                var first = 0
                for o in onsets[a] {
                    while first < other.count, other[first] <= o - lags { first += 1 }
                    var j = first
                    while j < other.count, other[j] < o + lags {
                        let p = other[j]
                        let shift = o - p                      // row (b, l + shift)
                        let valid = self.lags(of: o)
                        let lo = max(valid.lowerBound, -shift), hi = min(valid.upperBound, lags - shift)
                        if lo < hi {
                            let d = (shift + lags - 1) * (lags + 1)
                            marks[d + lo] += 1
                            marks[d + hi] -= 1
                        }
                        j += 1
                    }
                }
                for shift in (1 - lags)..<lags {
                    let d = (shift + lags - 1) * (lags + 1)
                    var running = 0
                    for l in 0..<lags {
                        running += marks[d + l]
                        let l2 = l + shift
                        if running != 0, l2 >= 0, l2 < lags { g.elements[(a * lags + l) * g.columns + b * lags + l2] += weight * Double(running) }
                    }
                }
            }
        }
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

    /// Adds X·Mᵀ to `out` (channels × features) in place.
    func addProduct(_ x: Matrix, to out: inout Matrix) {
        for (e, list) in onsets.enumerated() {
            for o in list {
                let valid = lags(of: o)
                guard !valid.isEmpty else { continue }
                for c in 0..<x.rows {
                    let row = c * samples + o + firstLag, target = c * out.columns + e * lagCount
                    for l in valid { out.elements[target + l] += x.elements[row + l] }
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
