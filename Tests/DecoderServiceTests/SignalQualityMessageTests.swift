import DecoderService
import Decoding
import Testing
import UtopiaProtocol

@Suite struct SignalQualityMessageTests {
    /// SIGNALQUALITY carries the estimator's figures, one per channel, at the given time.
    @Test func theMessageCarriesOneFigurePerChannel() {
        let estimator = SignalQualityEstimator(channels: 3, sampleRate: 250)
        let message = estimator.message(timestamp: 1234)
        #expect(message.timestamp == 1234)
        #expect(message.quality == estimator.assess().map { Float($0.quality) })
        #expect(message.quality == [1, 1, 1], "no data yet: every channel 1")
    }
}
