import Foundation
import Simulation
import TestSupport
import Testing
@testable import Decoding

/// Offline evaluation as a researcher runs it, on simulated calibrations.
@Suite struct OfflineEvaluationTests {
    @Test(.tags(.heavy), .heavyComputation) func nineClassesAtTheDefaultSNRReachNinetyPercentAtTwoSeconds() throws {
        let dataset = try DatasetSimulation(classes: 9, trials: 45, seed: 4).record()
        let report = try OfflineEvaluation().run(dataset)
        #expect(report.rows.map(\.seconds) == [0.5, 1, 2, 4])
        let atTwo = try #require(report.rows.first { $0.seconds == 2 })
        #expect(atTwo.accuracy >= 0.9, "accuracy at 2 s: \(atTwo.accuracy)")
        #expect(atTwo.trials == 45)
        #expect(report.rows[0].accuracy < report.rows[3].accuracy, "longer trials decode better")
        #expect(report.latencies.count == 5)
        #expect(report.latencies.allSatisfy { abs($0 - 0.040) <= 1 / 250 }, "latencies \(report.latencies)")
        for row in report.rows {
            #expect(row.predictedError.isFinite && (0...1).contains(row.predictedError))
            #expect(abs(row.actualError - (1 - row.accuracy)) < 1e-12)
        }
        #expect(report.recommendedCertainty >= 0.5 && report.recommendedCertainty < 1 - 1e-6, "a threshold was found")
        #expect(report.kernels.count == 2 && report.spatialPattern.count == 8)
    }

    @Test(.tags(.heavy), .heavyComputation) func predictedErrorFollowsTheActualError() throws {
        var simulation = DatasetSimulation(classes: 9, trials: 45, seed: 6)
        simulation.settings.snr = 0.02
        let report = try OfflineEvaluation().run(simulation.record())
        // Calibrated on held-out calibration predictions: the mean Perr lands near the error actually made.
        for row in report.rows {
            #expect(abs(row.predictedError - row.actualError) < 0.15,
                    "at \(row.seconds) s predicted \(row.predictedError), actual \(row.actualError)")
        }
        #expect(report.rows[0].actualError > 0.2, "a hard dataset, so the check means something")
    }

    @Test(.tags(.heavy), .heavyComputation) func aUserLookingAtNothingGetsAtMostOneFalsePressPerTenMinutes() throws {
        let calibration = try DatasetSimulation(classes: 9, trials: 45, seed: 7).record()
        // The same subject in another session, flickering codes but looking at none of them.
        var idle = DatasetSimulation(classes: 9, trials: 24, seed: 7)
        idle.noiseSeed = 70
        idle.looksAtTarget = false
        let report = try OfflineEvaluation().run(calibration, idle: idle.record())
        #expect(abs(report.idleMinutes - 5 * 24 * 4.2 / 60) < 0.01, "each fold listens to all 24 idle trials")
        #expect(report.idlePressesPerMinute <= 0.1, "\(report.idlePresses) false presses in \(report.idleMinutes) min")
        // The threshold that keeps idle quiet still lets the attended trials press, and rightly.
        #expect(report.pressedFraction >= 0.9 && report.pressAccuracy >= 0.95,
                "pressed \(report.pressedFraction), right \(report.pressAccuracy)")
    }

    @Test func idleDataOfAnotherShapeIsAnErrorNamingBoth() throws {
        let calibration = try DatasetSimulation(classes: 3, trials: 10, seed: 1).record()
        var other = DatasetSimulation(classes: 3, trials: 2, seed: 1)
        other.settings.channels = 4
        #expect(throws: ReconvolutionError.shapeMismatch(
            "the idle dataset has 4 channels at 250 Hz; the calibration 8 at 250 Hz")) {
            try OfflineEvaluation().run(calibration, idle: other.record())
        }
    }

    @Test func aRateWithNothingAboveTheHighPassIsNamedNotTheEEG() throws {
        let recorded = try DatasetSimulation(classes: 3, trials: 10, seed: 1).record()
        var header = recorded.header
        header.fs = 5
        let slow = try TrialsDataset(header: header, data: recorded.data, labels: recorded.labels, stimulus: recorded.stimulus)
        let message = "a sample rate of 5 Hz leaves nothing above the decoder's 3 Hz high-pass (half the rate must lie above it)"
        #expect(throws: ReconvolutionError.unusableSetting(message)) { try OfflineEvaluation().run(slow) }
        #expect(throws: ReconvolutionError.unusableSetting(message)) { try ZeroTrainingEvaluation().run(slow) }
    }

    @Test func foldsAreChronologicalBlocks() {
        let blocks = (0..<5).map { OfflineEvaluation.block($0, of: 5, count: 23) }
        #expect(blocks.flatMap { Array($0) } == Array(0..<23))
        #expect(blocks.map(\.count).allSatisfy { (4...5).contains($0) })
    }

    @Test func tooFewTrialsForTheFoldsIsAnError() throws {
        var simulation = DatasetSimulation(classes: 2, trials: 3, seed: 1)
        simulation.trialDuration = 0.5
        #expect(throws: ReconvolutionError.self) { try OfflineEvaluation().run(simulation.record()) }
    }
}
