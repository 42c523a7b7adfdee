import Testing
import UtopiaProtocol

@Suite struct DecoderModeTests {
    /// Each mode is sent in MindAffect's spelling and read back as itself.
    @Test(arguments: [DecoderMode.idle, .calibration, .prediction, .electrodeMeasurement, .reset])
    func everyModeTextReadsBackAsItsMode(mode: DecoderMode) {
        #expect(DecoderMode(modeText: mode.modeText) == mode)
    }

    @Test func theTextsAreTheOnesMindAffectsDecoderExpects() {
        #expect(DecoderMode.calibration.modeText == "Calibration.supervised")
        #expect(DecoderMode.prediction.modeText == "Prediction.static")
        #expect(DecoderMode.electrodeMeasurement.modeText == "ElectrodeMeasurement")
        #expect(DecoderMode(modeText: "Predict.static") == .prediction)
        #expect(DecoderMode(modeText: "Sideways") == nil)
    }
}
