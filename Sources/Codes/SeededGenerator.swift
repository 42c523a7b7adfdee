import Foundation

/// A small deterministic random generator (SeededGenerator) with Gaussian draws,
/// so that every simulated subject, recording and dataset is reproducible
/// from its seed.
///
/// ```swift
/// var rng = SeededGenerator(seed: 42)
/// let noise = rng.nextGaussian()          // N(0, 1)
/// let pick = Int.random(in: 0..<9, using: &rng)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// Where the generator is in its sequence: a generator seeded with it
    /// continues the same 64-bit draws (the engine saves it in replay
    /// snapshots).
    public private(set) var state: UInt64
    private var spare: Double?

    /// A generator whose sequence depends only on `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1).
    public mutating func nextUniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal draw (Box–Muller, the second value kept for the next call).
    public mutating func nextGaussian() -> Double {
        if let s = spare { spare = nil; return s }
        let u1 = max(nextUniform(), 1e-300)
        let u2 = nextUniform()
        let r = (-2 * log(u1)).squareRoot()
        spare = r * sin(2 * Double.pi * u2)
        return r * cos(2 * Double.pi * u2)
    }

    /// A generator for a named sub-stream, so that adding draws in one part of
    /// a simulation does not shift another part's.
    public func derived(stream: UInt64) -> SeededGenerator {
        var copy = SeededGenerator(seed: state ^ (stream &* 0xD1B5_4A32_D192_ED03))
        _ = copy.next()
        return copy
    }
}
