import Codes
import Decoding
import Foundation

/// The EEG a simulated amplifier records when nothing is seen: 1/f
/// background (a sum of first-order processes with corners a factor 3 apart,
/// partly shared across channels), an alpha rhythm, mains, slow drift,
/// occasional blinks on the front channels and muscle bursts. Streams sample
/// by sample; in units of the background's standard deviation.
public struct BackgroundActivity: Sendable {
    private static let corners = [0.3, 1, 3, 10, 30, 90.0]
    private let settings: SimulationSettings
    private let subject: SimulatedSubject
    private var rng: SeededGenerator
    private var pink: [Double]              // channels + 1 (shared) × corners
    private let pinkPoles: [Double]
    private var alpha = (0.0, 0.0)
    private let alphaCoefficients: (a1: Double, a2: Double, gain: Double)
    private var drift: [Double]
    private let driftPole: Double
    private let linePhase: [Double]
    private let lineGain: [Double]
    private var sampleIndex = 0
    private var blinkCentre: Double = -1
    private var muscleUntil: Double = -1
    private var muscleChannels: Set<Int> = []
    private var lastWhite: [Double]

    /// A background for `subject` recorded with `settings`, drawn from `seed`.
    public init(settings: SimulationSettings, subject: SimulatedSubject, seed: UInt64) {
        self.settings = settings
        self.subject = subject
        var rng = SeededGenerator(seed: seed).derived(stream: 2)
        let fs = settings.sampleRate
        pinkPoles = Self.corners.map { exp(-2 * Double.pi * $0 / fs) }
        pink = [Double](repeating: 0, count: (settings.channels + 1) * Self.corners.count)
        let r = 0.99, w = 2 * Double.pi * subject.alphaFrequency / fs
        let a1 = 2 * r * cos(w), a2 = -r * r
        let variance = (1 + r * r) / ((1 - r * r) * ((1 + r * r) * (1 + r * r) - 4 * r * r * cos(w) * cos(w)))
        alphaCoefficients = (a1, a2, 1 / variance.squareRoot())
        driftPole = exp(-2 * Double.pi * 0.02 / fs)
        drift = (0..<settings.channels).map { _ in rng.nextGaussian() }
        linePhase = (0..<settings.channels).map { _ in 0.3 * rng.nextGaussian() }
        lineGain = (0..<settings.channels).map { _ in 0.5 + 1.5 * rng.nextUniform() }
        lastWhite = [Double](repeating: 0, count: settings.channels)
        self.rng = rng
    }

    /// The next sample of every channel.
    public mutating func nextSample() -> [Double] {
        let fs = settings.sampleRate
        let t = Double(sampleIndex) / fs
        sampleIndex += 1
        let nCorners = Self.corners.count
        // 1/f: per channel and one shared source, each a sum of unit-variance AR(1)s.
        var pinkValue = [Double](repeating: 0, count: settings.channels + 1)
        for s in 0...settings.channels {
            var sum = 0.0
            for k in 0..<nCorners {
                let p = pinkPoles[k]
                let i = s * nCorners + k
                pink[i] = p * pink[i] + (1 - p * p).squareRoot() * rng.nextGaussian()
                sum += pink[i]
            }
            pinkValue[s] = sum / Double(nCorners).squareRoot()
        }
        let (a1, a2, g) = alphaCoefficients
        let nextAlpha = a1 * alpha.0 + a2 * alpha.1 + g * rng.nextGaussian()
        alpha = (nextAlpha, alpha.0)
        // Artefacts start as Poisson events.
        if rng.nextUniform() < settings.blinkRate / fs { blinkCentre = t + 0.15 }
        if rng.nextUniform() < settings.muscleBurstRate / fs {
            muscleUntil = t + 0.3 + 0.7 * rng.nextUniform()
            let first = Int(rng.next() % UInt64(settings.channels))
            muscleChannels = [first, (first + 1) % settings.channels]
        }
        let blink = blinkCentre < 0 ? 0 : 15 * exp(-pow((t - blinkCentre) / 0.08, 2))
        var out = [Double](repeating: 0, count: settings.channels)
        for c in 0..<settings.channels {
            drift[c] = driftPole * drift[c] + (1 - driftPole * driftPole).squareRoot() * rng.nextGaussian()
            var v = (0.7).squareRoot() * pinkValue[c] + (0.3).squareRoot() * pinkValue[settings.channels]
            v += settings.alphaAmplitude * subject.alphaPattern[c] * alpha.0
            v += settings.lineAmplitude * lineGain[c] * sin(2 * Double.pi * settings.lineFrequency * t + linePhase[c])
            v += settings.driftAmplitude * drift[c]
            v += blink * exp(-Double(c) / 1.5)
            let white = rng.nextGaussian()
            if t < muscleUntil, muscleChannels.contains(c) { v += 3 * (white - lastWhite[c]) / 2.0.squareRoot() }
            lastWhite[c] = white
            out[c] = v
        }
        return out
    }

    /// The variance, per channel, of the parts that count as background for
    /// the SNR: the 1/f activity and the alpha rhythm.
    public var backgroundVariance: [Double] {
        subject.alphaPattern.map { 1 + pow(settings.alphaAmplitude * $0, 2) }
    }
}
