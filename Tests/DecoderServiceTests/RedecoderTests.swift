import DecoderService
import Decoding
import Foundation
import TestSupport
import Testing
import UtopiaProtocol

/// The reference decoder run again, offline, on what a live one consumed.
@Suite struct RedecoderTests {
    @Test(.tags(.heavy), .heavyComputation) func aRedecodeOfTheRecordedInputFitsAndNamesTheSameTargetsAsTheLiveRun() throws {
        let recorded = RecordedSession.shared
        #expect(recorded.finalPredictions == [2, 4, 1])
        let redecoding = Redecoder().run(recorded.records)
        #expect(redecoding.undecodableRecords == 0)
        #expect(redecoding.calibrations.count == 1)
        let fitted = try #require(redecoding.calibrations.first?.decoder)
        #expect(abs(fitted.model.responseLatency - 0.040) <= 0.004)
        #expect(redecoding.logLines.contains { $0.contains("cross-validated accuracy") })
        #expect(!redecoding.logLines.contains { $0.contains("fitted in") })
        let thresholds = redecoding.messages.compactMap { if case .certaintyThreshold(let t) = $0.message { return t.threshold } else { return nil } }
        #expect(thresholds == [recorded.threshold].compactMap { $0 })             // the same calibration, the same fit
        // The last prediction in each prediction trial names the live run's target.
        let bounds = recorded.trialStarts + [Double.infinity]
        let finals = (0..<3).map { k in
            redecoding.predictions.last { $0.time >= bounds[k] && $0.time < bounds[k + 1] }?.prediction.objID ?? -1
        }
        #expect(finals == recorded.finalPredictions)
        #expect(redecoding.predictions.allSatisfy { $0.prediction.errorProbability.isFinite })
    }

    @Test(.tags(.heavy), .heavyComputation) func theSameInputGivesTheSameOutputBitForBit() {
        let records = RecordedSession.shared.records
        let first = Redecoder().run(records)
        let second = Redecoder().run(records)
        #expect(!first.messages.isEmpty)
        #expect(first.messages.map(\.time.bitPattern) == second.messages.map(\.time.bitPattern))
        #expect(first.messages.map { UtopiaCodec.encode($0.message) } == second.messages.map { UtopiaCodec.encode($0.message) })
        #expect(first.calibrations.map(\.log) == second.calibrations.map(\.log))
    }

    @Test func theScheduleAdvancesEveryIntervalAndRunsOnForTheTail() throws {
        // A header, a mode change and nothing else: signal quality every 0.5 s of recorded time.
        let records = [
            try #require(DecoderInputRecord(.dataHeader(DataHeader(timestamp: 0, channelCount: 2, sampleRate: 250, labels: [])),
                                            wireMilliseconds: 10_000)),
            try #require(DecoderInputRecord(.modeChange(ModeChange(timestamp: 11_000, newMode: "ElectrodeMeasurement")),
                                            wireMilliseconds: 11_000)),
        ]
        var redecoder = Redecoder()
        redecoder.tail = 1
        let redecoding = redecoder.run(records)
        let quality = redecoding.messages.filter { if case .signalQuality = $0.message { return true } else { return false } }
        #expect(quality.map(\.time) == [10, 10.5, 11, 11.5, 12])
        let echo = try #require(redecoding.messages.first { if case .modeChange = $0.message { return true } else { return false } })
        #expect(echo.time == 11)
    }
}
