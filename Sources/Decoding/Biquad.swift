import Foundation

/// One second-order section `H(z) = (b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²)`,
/// designed with the bilinear transform (R. Bristow-Johnson's cookbook).
public struct Biquad: Equatable, Sendable {
    /// Numerator coefficients (`b0`, `b1`, `b2`) and denominator coefficients
    /// (`a1`, `a2`; `a0` is 1): `let zeroAtNyquist = q.b0 - q.b1 + q.b2`.
    public var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    /// A section from normalised coefficients (`a0` = 1).
    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    private init(b: (Double, Double, Double), a: (Double, Double, Double)) {
        self.init(b0: b.0 / a.0, b1: b.1 / a.0, b2: b.2 / a.0, a1: a.1 / a.0, a2: a.2 / a.0)
    }

    /// A notch (band-stop) at `frequency` whose −3 dB band is
    /// `frequency / quality` wide, as scipy's `iirnotch` designs it (the
    /// digital band is exact, with β = tan(bandwidth / 2)).
    public static func notch(frequency: Double, quality: Double, sampleRate: Double) -> Biquad {
        let w = 2 * Double.pi * frequency / sampleRate
        let beta = tan(w / (2 * quality))
        return Biquad(b: (1, -2 * cos(w), 1), a: (1 + beta, -2 * cos(w), 1 - beta))
    }

    /// A second-order low-pass with corner `frequency` and quality `quality`
    /// (1/√2 gives a Butterworth section).
    public static func lowPass(frequency: Double, quality: Double, sampleRate: Double) -> Biquad {
        let w = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(w) / (2 * quality)
        let c = cos(w)
        return Biquad(b: ((1 - c) / 2, 1 - c, (1 - c) / 2), a: (1 + alpha, -2 * c, 1 - alpha))
    }

    /// A second-order high-pass with corner `frequency` and quality `quality`.
    public static func highPass(frequency: Double, quality: Double, sampleRate: Double) -> Biquad {
        let w = 2 * Double.pi * frequency / sampleRate
        let alpha = sin(w) / (2 * quality)
        let c = cos(w)
        return Biquad(b: ((1 + c) / 2, -(1 + c), (1 + c) / 2), a: (1 + alpha, -2 * c, 1 - alpha))
    }

    /// The qualities of the sections of an even-order Butterworth filter.
    public static func butterworthQualities(order: Int) -> [Double] {
        precondition(order >= 2 && order % 2 == 0, "Butterworth cascades here have an even order")
        return (0..<(order / 2)).map { k in
            1 / (2 * sin(Double(2 * k + 1) * Double.pi / Double(2 * order)))
        }
    }

    /// The magnitude of the frequency response at `frequency`, from the coefficients.
    public func gain(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        func magnitude(_ c0: Double, _ c1: Double, _ c2: Double) -> Double {
            let re = c0 + c1 * cos(w) + c2 * cos(2 * w)
            let im = -(c1 * sin(w) + c2 * sin(2 * w))
            return (re * re + im * im).squareRoot()
        }
        return magnitude(b0, b1, b2) / magnitude(1, a1, a2)
    }

    /// The gain for a constant input (z = 1).
    public var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }
}
