import Foundation

/// Student's t distribution's tail, for a certainty without calibration
/// (``ZeroTrainingLearner/errorProbability(scores:)``): `P(T > t)` through
/// the regularised incomplete beta function `I_x(ν/2, 1/2)` with
/// `x = ν / (ν + t²)`, evaluated by its continued fraction (modified Lentz).
public enum StudentT {
    /// `P(T > t)` for `ν` degrees of freedom (ν > 0); NaN for a NaN input.
    public static func upperTail(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        guard t.isFinite, nu > 0 else { return t.isNaN || !(nu > 0) ? .nan : (t > 0 ? 0 : 1) }
        let x = nu / (nu + t * t)
        let half = 0.5 * regularizedIncompleteBeta(x, a: nu / 2, b: 0.5)
        return t >= 0 ? half : 1 - half
    }

    /// `I_x(a, b)` for 0 ≤ x ≤ 1 and a, b > 0.
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logFront: Double = logBeta + a * log(x) + b * log(1 - x)
        // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * continuedFraction(1 - x, a: b, b: a) / b
    }

    private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300, epsilon = 1e-15
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m), m2 = 2 * m
            var aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
            d = 1 + aa * d; if abs(d) < tiny { d = tiny }
            c = 1 + aa / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
            d = 1 + aa * d; if abs(d) < tiny { d = tiny }
            c = 1 + aa / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return h
    }
}
