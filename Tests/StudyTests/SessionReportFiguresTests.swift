import Foundation
import Study
import Testing

/// The report's figures from a step's selections: Wolpaw's ITR over the
/// step's whole time, and the selection-time histogram's bins.
@Suite struct SessionReportFiguresTests {
    static func wolpaw(n: Double, p: Double) -> Double {
        log2(n) + p * log2(p) + (1 - p) * log2((1 - p) / (n - 1))
    }

    // MARK: ITR

    @Test func itrIsWolpawsBitsOverTheStepsWholeTimePerSelection() {
        // 10 presses in 60 s on 28 keys, 9 of 10 right: 6 s per selection.
        let presses = (0..<10).map { SessionReportTests.selection(1.2, intended: "A", pressed: $0 == 0 ? "B" : "A", source: "brain") }
        let row = SessionReport.spelling(SessionReportTests.spelling(classes: 28, judged: 10, correct: 9, seconds: 60, selections: presses))
        #expect(row.selections == 10)
        #expect(row.accuracy == 0.9)
        #expect(row.secondsPerSelection == 6)
        let bits = Self.wolpaw(n: 28, p: 0.9)
        #expect(abs(row.bitsPerSelection! - bits) < 1e-12)
        #expect(abs(row.bitsPerMinute! - bits * 10) < 1e-9)
        #expect(abs(row.bitsPerMinute! - 38.63) < 0.01)   // 4.807 − 0.137 − 0.808 bits, 10 a minute
    }

    @Test func allRightGivesLog2NAndChanceOrWorseGivesZero() {
        let two = (0..<10).map { _ in SessionReportTests.selection(1, intended: "A", pressed: "A", source: "brain") }
        let perfect = SessionReport.spelling(SessionReportTests.spelling(classes: 2, judged: 10, correct: 10, seconds: 60, selections: two))
        #expect(perfect.bitsPerSelection == 1)
        #expect(perfect.bitsPerMinute == 10)
        let perfect28 = SessionReport.spelling(SessionReportTests.spelling(classes: 28, judged: 10, correct: 10, seconds: 60, selections: two))
        #expect(abs(perfect28.bitsPerSelection! - log2(28)) < 1e-12)
        // P = 1/N exactly and below it: no information.
        let four = (0..<4).map { _ in SessionReportTests.selection(1, intended: "A", pressed: "B", source: "brain") }
        #expect(SessionReport.spelling(SessionReportTests.spelling(classes: 4, judged: 4, correct: 1, seconds: 20, selections: four)).bitsPerMinute == 0)
        #expect(SessionReport.spelling(SessionReportTests.spelling(classes: 4, judged: 4, correct: 0, seconds: 20, selections: four)).bitsPerMinute == 0)
    }

    @Test func withoutJudgedPressesKeysOrSelectionsThereIsNoITR() {
        let free = (0..<3).map { _ in SessionReportTests.selection(1, intended: nil, pressed: "A", source: "brain") }
        let freeRow = SessionReport.spelling(SessionReportTests.spelling("freeSpell", classes: 28, judged: 0, correct: 0, seconds: 30, selections: free))
        #expect(freeRow.selections == 3 && freeRow.accuracy == nil && freeRow.bitsPerMinute == nil)
        let noKeys = SessionReport.spelling(SessionReportTests.spelling(classes: nil, judged: 3, correct: 3, seconds: 30, selections: free))
        #expect(noKeys.bitsPerSelection == nil && noKeys.bitsPerMinute == nil)
        // Trials without a press count as time, not as selections.
        let none = [SessionReportTests.selection(10, intended: "A", pressed: nil, source: nil)]
        let empty = SessionReport.spelling(SessionReportTests.spelling(classes: 28, judged: 0, correct: 0, seconds: 30, selections: none))
        #expect(empty.selections == 0 && empty.secondsPerSelection == nil && empty.bitsPerMinute == nil)
        let mixed = none + Array(free.prefix(2))
        #expect(SessionReport.spelling(SessionReportTests.spelling(classes: 28, judged: 2, correct: 2, seconds: 30, selections: mixed)).secondsPerSelection == 15)
    }

    // MARK: Histogram

    @Test func selectionTimesAreBinnedInRoundWidthsFromAMultipleBelowTheShortest() {
        let h = SelectionTimeHistogram(seconds: [1.0, 1.1, 1.3, 2.6])
        #expect(h.width == 0.1 && h.origin == 1.0)
        #expect(h.counts == [1, 1, 0, 1] + [Int](repeating: 0, count: 12) + [1])
        // 0.5 … 9.7 s needs 19 bins of 0.5 s; 0.25 would need 37.
        let wide = SelectionTimeHistogram(seconds: [0.5, 0.74, 0.75, 9.7])
        #expect(wide.width == 0.5 && wide.origin == 0.5 && wide.counts.count == 19)
        #expect(wide.counts[0] == 3 && wide.counts[18] == 1 && wide.counts.reduce(0, +) == 4)
        // A value on an edge starts its bin; negative and NaN values are left out.
        let edges = SelectionTimeHistogram(seconds: [0.3, 0.4, -1, .nan])
        #expect(edges.seconds == [0.3, 0.4] && edges.origin == 0.3 && edges.counts == [1, 1])
        #expect(edges.mean == 0.35 && edges.median == 0.35)
        #expect(SelectionTimeHistogram(seconds: []).counts.isEmpty)
    }
}
