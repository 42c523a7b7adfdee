import Decoding
import UtopiaProtocol

extension SignalQualityEstimator {
    /// The assessment as the SIGNALQUALITY message the decoder sends.
    public func message(timestamp: Int32) -> SignalQuality {
        SignalQuality(timestamp: timestamp, quality: assess().map { Float($0.quality) })
    }
}
