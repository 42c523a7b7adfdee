@testable import NoiseTagging
import Testing
import UtopiaProtocol
@testable import Demo

/// What the demo hears from its decoder across a paused calibration.
@Suite struct DecoderReportsTests {
    private func traffic(_ direction: DecoderTraffic.Direction, _ message: UtopiaMessage) -> DecoderTraffic {
        DecoderTraffic(time: 0, direction: direction, message: message, bytes: [])
    }

    @Test func aFitDuringAPauseInCalibrationIsVoidOnceCalibrationGoesOn() {
        let reports = DecoderReports()
        // Paused after two trials: the engine tells the decoder idle, which fits on them and finds one class.
        reports.hear(traffic(.out, .modeChange(ModeChange(timestamp: 0, newMode: "idle"))))
        reports.hear(traffic(.in, .calibrationResult(CalibrationResult(timestamp: 0, fitted: false, trials: 2, summary: "one class only"))))
        #expect(reports.calibrationFailed && reports.fitHasEnded(since: 0, now: 1, timeout: 120))
        // Resumed: the calibration goes on, and the wait for its fit waits for the fit at its end.
        reports.hear(traffic(.out, .modeChange(ModeChange(timestamp: 0, newMode: "Calibration.supervised"))))
        #expect(!reports.calibrationFailed && !reports.fitHasEnded(since: 0, now: 1, timeout: 120))
        reports.hear(traffic(.in, .certaintyThreshold(CertaintyThreshold(timestamp: 0, threshold: 0.99))))
        #expect(reports.fitHasEnded(since: 0, now: 1, timeout: 120) && reports.thresholds == [Double(Float(0.99))])
    }
}
