@testable import DecoderService
import Foundation
import Testing

/// The JSON `noisetag decoder stream --json` prints: every key present,
/// unknown values as null, and the file reads back.
@Suite("Playback report JSON")
struct PlaybackReportJSONTests {
    @Test("a trial without a press writes pressed, seconds and the final prediction as null, and reads back")
    func absentValuesAreNull() throws {
        var report = PlaybackReport()
        report.trials = 2
        report.predictionTrials = [
            .init(trial: 1, target: 3, pressed: 3, seconds: 1.25, predictions: 4, finalPrediction: 3, finalCertainty: 0.99, threshold: 0.98),
            .init(trial: 2, target: 1, pressed: nil, seconds: nil, predictions: 0, finalPrediction: nil, finalCertainty: nil, threshold: nil),
        ]
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let trials = try #require(object["predictionTrials"] as? [[String: Any]])
        #expect(Set(trials[1].keys) == ["trial", "target", "pressed", "seconds", "predictions", "finalPrediction", "finalCertainty", "threshold"])
        #expect(trials[1]["pressed"] is NSNull && trials[1]["finalCertainty"] is NSNull)
        #expect(trials[0]["pressed"] as? Int == 3)
        #expect(object["certainty"] is NSNull, "an unknown certainty is written as null too")
        #expect(try JSONDecoder().decode(PlaybackReport.self, from: data) == report)
    }

    @Test("a trial written without its optional keys still reads, as no press")
    func missingKeysReadAsNil() throws {
        let json = #"{"trial": 4, "target": 2, "predictions": 1}"#
        let trial = try JSONDecoder().decode(PlaybackReport.Trial.self, from: Data(json.utf8))
        #expect(trial.pressed == nil && trial.seconds == nil && trial.finalPrediction == nil && trial.finalCertainty == nil)
        #expect(trial.target == 2)
    }

    @Test("a trial without a press says the certainty it needed, which a refit may have changed since")
    func theLineGivesTheThresholdTheTrialNeeded() {
        let trial = PlaybackReport.Trial(trial: 24, target: 6, pressed: nil, seconds: nil, predictions: 4, finalPrediction: 6,
                                         finalCertainty: 0.999877, threshold: 0.999921)
        #expect(trial.line == "trial 24: target object 6, no press (last prediction 6 at certainty 0.99988, below the 0.99992 this trial needed)")
    }
}
