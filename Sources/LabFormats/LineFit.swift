/// A straight line `y = intercept + slope · x`, fitted by least squares or
/// robustly (least absolute deviations by reweighting), as the importers
/// fit sample clocks and clock offsets.
struct LineFit: Sendable, Equatable {
    /// y at x = 0.
    var intercept: Double
    /// dy / dx.
    var slope: Double

    /// `value` rounded up to an integer, clamped to ±2⁴⁰ (NaN gives −2⁴⁰), so
    /// that a corrupt time never traps in the conversion or later arithmetic.
    static func ceilingIndex(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? 1 << 40 : -(1 << 40) }
        return Int(min(max(value.rounded(.up), -Double(1 << 40)), Double(1 << 40)))
    }

    /// y at `x`.
    func callAsFunction(_ x: Double) -> Double { intercept + slope * x }

    /// The least-squares line through the points (weighted by `weights`
    /// when given); nil with fewer than two distinct x.
    static func leastSquares(x: [Double], y: [Double], weights: [Double]? = nil) -> LineFit? {
        guard x.count == y.count, x.count >= 2 else { return nil }
        let w = weights ?? Array(repeating: 1, count: x.count)
        let total = w.reduce(0, +)
        guard total > 0 else { return nil }
        var mx = 0.0, my = 0.0
        for i in x.indices { mx += w[i] * x[i]; my += w[i] * y[i] }
        mx /= total
        my /= total
        var sxx = 0.0, sxy = 0.0
        for i in x.indices {
            let dx = x[i] - mx
            sxx += w[i] * dx * dx
            sxy += w[i] * dx * (y[i] - my)
        }
        guard sxx > 0, sxx.isFinite, sxy.isFinite else { return nil }
        let slope = sxy / sxx
        return LineFit(intercept: my - slope * mx, slope: slope)
    }

    /// A line that outliers barely move: least absolute deviations by
    /// iteratively reweighted least squares (`floor` bounds the weights);
    /// nil with fewer than two distinct x.
    static func robust(x: [Double], y: [Double], floor: Double = 1e-6, iterations: Int = 20) -> LineFit? {
        guard var fit = leastSquares(x: x, y: y) else { return nil }
        for _ in 0..<iterations {
            let weights = x.indices.map { 1 / max(abs(y[$0] - fit(x[$0])), floor) }
            guard let next = leastSquares(x: x, y: y, weights: weights) else { break }
            fit = next
        }
        return fit
    }
}
