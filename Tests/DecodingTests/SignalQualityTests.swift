import Foundation
import Simulation
import Testing
@testable import Decoding

/// Signal quality as the quality modes show it: clean low, noisy high, broken channels named, never NaN.
@Suite struct SignalQualityTests {
    static func recording(lineAmplitude: Double, seconds: Double = 2) -> [[Double]] {
        var settings = SimulationSettings()
        settings.lineAmplitude = lineAmplitude
        settings.blinkRate = 0
        settings.muscleBurstRate = 0
        var amplifier = SimulatedAmplifier(settings: settings, subject: SimulatedSubject(seed: 1), seed: 2)
        return amplifier.read(samples: Int(seconds * 250))
    }

    @Test func mainsNoiseRaisesTheFigure() {
        var clean = SignalQualityEstimator(channels: 8, sampleRate: 250)
        clean.append(Self.recording(lineAmplitude: 0))
        var noisy = SignalQualityEstimator(channels: 8, sampleRate: 250)
        noisy.append(Self.recording(lineAmplitude: 20))
        let c = clean.assess(), n = noisy.assess()
        #expect(c.allSatisfy { $0.quality < 0.3 && $0.problem == nil }, "\(c.map(\.quality))")
        #expect(n.allSatisfy { $0.quality > 0.5 }, "\(n.map(\.quality))")
        #expect(zip(c, n).allSatisfy { $1.quality > $0.quality + 0.3 })
    }

    @Test func brokenChannelsAreBadWithTheirReason() {
        var block = Self.recording(lineAmplitude: 0)
        block[1] = [Double](repeating: 42, count: 500)                        // flat
        block[2] = block[2].map { min(max($0, -5), 5) }                      // clipped at ±5 µV
        block[3] = block[3].enumerated().map { $0.offset % 2 == 0 ? .nan : $0.element }
        block[4] = [Double](repeating: .infinity, count: 500)
        var estimator = SignalQualityEstimator(channels: 8, sampleRate: 250)
        estimator.append(block)
        let q = estimator.assess()
        #expect(q[1] == ChannelQuality(quality: 1, problem: "flat"))
        #expect(q[2] == ChannelQuality(quality: 1, problem: "clipped"))
        #expect(q[3] == ChannelQuality(quality: 1, problem: "not finite (250 samples)"))
        #expect(q[4] == ChannelQuality(quality: 1, problem: "not finite (500 samples)"))
        #expect(q[0].problem == nil && q[0].quality < 0.3)
        #expect(estimator.assess().map(\.quality).allSatisfy { $0.isFinite && (0...1).contains($0) })
    }

    @Test func noDataIsBadNotNaN() {
        let estimator = SignalQualityEstimator(channels: 3, sampleRate: 250)
        #expect(estimator.assess() == Array(repeating: ChannelQuality(quality: 1, problem: "no data"), count: 3))
        #expect(estimator.assess().map(\.quality) == [1, 1, 1])
    }

    @Test func aSampleRateTooLowToTellIsBad() {
        var estimator = SignalQualityEstimator(channels: 2, sampleRate: 50)
        estimator.append([[Double](repeating: 0, count: 100).indices.map { sin(Double($0)) }, [Double](repeating: 1, count: 100)])
        #expect(estimator.assess().allSatisfy { $0.quality == 1 && $0.problem?.contains("50.0 Hz") == true })
        let nonsense = SignalQualityEstimator(channels: 1, sampleRate: .nan)
        #expect(nonsense.assess().map(\.quality) == [1])
    }

    @Test func aChannelRecoversOnceBadSamplesLeaveTheWindow() {
        var block = Self.recording(lineAmplitude: 0)
        block[0][10] = .nan
        var estimator = SignalQualityEstimator(channels: 8, sampleRate: 250)
        estimator.append(block)
        #expect(estimator.assess()[0].quality == 1)
        estimator.append(Self.recording(lineAmplitude: 0, seconds: 1.99))
        #expect(estimator.assess()[0].problem == nil)
    }

    @Test func onlyTheLastWindowCounts() {
        var estimator = SignalQualityEstimator(channels: 8, sampleRate: 250)
        estimator.append(Self.recording(lineAmplitude: 20))
        estimator.append(Self.recording(lineAmplitude: 0, seconds: 2))
        #expect(estimator.assess().allSatisfy { $0.quality < 0.3 })
    }
}
