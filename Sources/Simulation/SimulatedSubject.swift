import Codes
import Decoding
import Foundation

/// A simulated person's brain, drawn from a seed: the spatial pattern of the
/// visual response over the channels, the response kernels to a flash's
/// rising edge (light on) and falling edge (light off), the alpha rhythm's
/// frequency and pattern. A flash of any length answers with the rising-edge
/// kernel at its start plus the falling-edge kernel at its end, so short and
/// long flashes give different responses.
public struct SimulatedSubject: Sendable, Equatable {
    /// The seed the subject was drawn from.
    public let seed: UInt64
    /// Weight of the visual response on each channel (unit norm).
    public let responsePattern: [Double]
    /// Weight of the alpha rhythm on each channel.
    public let alphaPattern: [Double]
    /// Alpha frequency in Hz.
    public let alphaFrequency: Double
    /// Seconds over which a kernel is non-zero.
    public let kernelDuration: Double
    private let rise: [KernelWave]
    private let fall: [KernelWave]

    private struct KernelWave: Sendable, Equatable {
        var amplitude: Double, decay: Double, frequency: Double, phase: Double
        func value(at t: Double) -> Double {
            amplitude * exp(-t / decay) * cos(2 * Double.pi * frequency * t + phase)
        }
    }

    /// A subject drawn from `seed`, for an amplifier with `channels` channels.
    public init(seed: UInt64, channels: Int = 8, kernelDuration: Double = 0.3) {
        var rng = SeededGenerator(seed: seed).derived(stream: 1)
        func uniform(_ r: ClosedRange<Double>) -> Double { r.lowerBound + (r.upperBound - r.lowerBound) * rng.nextUniform() }
        self.seed = seed
        self.kernelDuration = kernelDuration
        // An occipital source: strongest on the last channels, with a per-subject mix.
        var pattern = (0..<channels).map { c in
            0.3 + Double(c + 1) / Double(channels) + 0.4 * rng.nextGaussian()
        }
        let norm = pattern.reduce(0) { $0 + $1 * $1 }.squareRoot()
        pattern = pattern.map { $0 / norm }
        responsePattern = pattern
        alphaPattern = (0..<channels).map { c in 0.4 + 0.8 * Double(c) / Double(max(1, channels - 1)) + 0.2 * rng.nextGaussian() }
        alphaFrequency = uniform(9...11)
        // The rising edge: a fast wave at full strength from the onset plus a slower one.
        rise = [
            KernelWave(amplitude: 1, decay: uniform(0.04...0.07), frequency: uniform(9...13), phase: uniform(-0.3...0.3)),
            KernelWave(amplitude: uniform(0.3...0.6), decay: uniform(0.08...0.15), frequency: uniform(3...6), phase: uniform(0...1)),
        ]
        // The falling edge: weaker, of its own shape and sign.
        fall = [
            KernelWave(amplitude: -uniform(0.4...0.7), decay: uniform(0.04...0.08), frequency: uniform(6...10), phase: uniform(-0.5...0.5)),
            KernelWave(amplitude: uniform(0.1...0.3), decay: uniform(0.08...0.15), frequency: uniform(2...5), phase: uniform(0...1)),
        ]
    }

    /// The response `t` seconds after the light turns on (0 outside the kernel).
    public func riseKernel(at t: Double) -> Double { kernel(rise, t) }

    /// The response `t` seconds after the light turns off (0 outside the kernel).
    public func fallKernel(at t: Double) -> Double { kernel(fall, t) }

    private func kernel(_ waves: [KernelWave], _ t: Double) -> Double {
        guard t >= 0, t < kernelDuration else { return 0 }
        let taper = 0.5 * (1 + cos(Double.pi * t / kernelDuration))
        return taper * waves.reduce(0) { $0 + $1.value(at: t) }
    }
}
