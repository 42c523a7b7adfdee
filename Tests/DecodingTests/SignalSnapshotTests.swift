import Decoding
import Testing

/// SIGNALQUALITY's noise fraction becomes the noise-to-signal ratio a signal view colours.
@Suite struct SignalSnapshotTests {
    @Test(arguments: [(0.0, 0.0), (0.2, 0.25), (1.0 / 3, 0.5), (0.5, 1.0), (0.8, 4.0)])
    func aNoiseFractionBecomesTheRatioOfNoiseToSignal(fraction: Double, ratio: Double) {
        #expect(abs(SignalSnapshot.noiseToSignal(noiseFraction: fraction) - ratio) < 1e-12)
    }

    @Test func aHopelessOrMeaninglessFigureGivesTheLimit() {
        for fraction in [10.0 / 11, 0.95, 1, 3, .infinity, .nan] {
            #expect(SignalSnapshot.noiseToSignal(noiseFraction: fraction) == SignalSnapshot.noiseToSignalLimit)
        }
        #expect(SignalSnapshot.noiseToSignal(noiseFraction: 0.9) < SignalSnapshot.noiseToSignalLimit)
        #expect(SignalSnapshot.noiseToSignal(noiseFraction: -0.5) == 0)
    }
}
