import Decoding
import Foundation
import TestSupport
import Testing
@testable import LabFormats

/// Zero training on a recording nobody on the project made: the MindAffect
/// example session (4 channels, 9 classes, 10 cued trials), its cues hidden.
@Suite struct ZeroTrainingRealTests {
    @Test(.tags(.heavy), .heavyComputation) func theMindAffectSessionIsLearnedWithoutItsCuesAndNoEarlyPressIsWrong() throws {
        let dataset = try SavefileImporter.read(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        var evaluation = ZeroTrainingEvaluation()
        evaluation.selection = nil
        let outcome = try evaluation.run(dataset)
        #expect(outcome.trials.map(\.target) == dataset.labels.map(Int.init))
        #expect(outcome.learnedLabelAccuracy >= 0.8, "learned \(outcome.learnedLabels), cued \(dataset.labels)")
        #expect(outcome.wrongPresses(to: 10) <= 1, "\(outcome.trials.map { ($0.target, $0.selected ?? -1) })")
        #expect(outcome.trials.contains { $0.selected == $0.target }, "it types before the session ends")
    }
}
