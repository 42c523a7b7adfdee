import Codes
import Foundation
import Simulation
import TestSupport
import Testing
@testable import Decoding

@Suite struct SettingsSelectionTests {
    static let dataset: TrialsDataset = try! DatasetSimulation(classes: 6, trials: 24, seed: 7).record()

    func trials(_ lowPass: Double?) -> [[[Double]]] {
        let h = Self.dataset.header
        return Self.dataset.preprocessedTrials(Preprocessor(sampleRate: h.fs, channels: h.nChannels, lowPass: lowPass))
    }

    @Test func theCandidateThatDecodesWinsEvenWhenListedLast() throws {
        let d = Self.dataset
        // The simulated response starts 40 ms after the stimulus and is over by 300 ms:
        // a 0.1 s window from 0.35 s sees none of it.
        var blind = ReconvolutionSettings()
        blind.fixedLatency = 0.35
        blind.encodingLength = 0.1
        var selection = SettingsSelection()
        selection.candidates = [FitCandidate(settings: blind), FitCandidate()]
        let outcome = try selection.select(labels: d.labels.map(Int.init), codes: (0..<d.header.nClasses).map(d.stimulus(ofClass:)),
                                           sampleRate: d.header.fs, preprocessed: trials)
        #expect(outcome.chosen == FitCandidate())
        #expect(outcome.rankings.map(\.candidate) == [FitCandidate(), FitCandidate(settings: blind)])
        #expect(outcome.rankings[0].accuracy > 0.8 && outcome.rankings[1].accuracy < 0.5)
    }

    @Test func eachBandIsPreprocessedOnceAndTiesGoToTheEarlierCandidate() throws {
        let d = Self.dataset
        var asked: [Double?] = []
        var selection = SettingsSelection()
        selection.candidates = [FitCandidate(), FitCandidate(), FitCandidate(lowPass: 30)]
        let outcome = try selection.select(labels: d.labels.map(Int.init), codes: (0..<d.header.nClasses).map(d.stimulus(ofClass:)),
                                           sampleRate: d.header.fs) { band in asked.append(band); return trials(band) }
        #expect(asked == [nil, 30])
        #expect(outcome.rankings.count == 3)
        #expect(outcome.rankings[0].accuracy >= outcome.rankings[1].accuracy && outcome.rankings[1].accuracy >= outcome.rankings[2].accuracy)
        // Two identical candidates score alike; the first listed ranks first.
        let identical = outcome.rankings.filter { $0.candidate == FitCandidate() }
        #expect(identical.count == 2 && identical[0].accuracy == identical[1].accuracy)
    }

    /// A selection between the defaults and the defaults blending averaged responses.
    static func withAndWithoutBlend() -> SettingsSelection {
        var selection = SettingsSelection()
        var blending = ReconvolutionSettings()
        blending.templateBlend = 0.5
        selection.candidates = [FitCandidate(), FitCandidate(settings: blending)]
        return selection
    }

    /// An engine calibration translates its codes from trial to trial, so no
    /// code has two trials to average: the blending candidates, which would
    /// score as their twins, are not scored at all.
    @Test func blendingCandidatesAreLeftOutWhenNoCodeWasShownTwice() throws {
        let d = Self.dataset
        let selection = Self.withAndWithoutBlend()
        let codes = (0..<d.header.nClasses).map(d.stimulus(ofClass:))
        let labels = d.labels.map(Int.init)
        let repeated = try selection.select(labels: labels, codes: codes, sampleRate: d.header.fs, preprocessed: trials)
        #expect(repeated.rankings.count == 2)
        // The first trial of each class only: every code once.
        let firsts = codes.indices.compactMap { k in labels.firstIndex(of: k) }
        let once = try selection.select(labels: firsts.map { labels[$0] }, codes: codes, sampleRate: d.header.fs) { band in
            let all = trials(band)
            return firsts.map { all[$0] }
        }
        #expect(once.rankings.map(\.candidate) == [FitCandidate()])
    }

    /// On `fewestTrialsToBlend` trials or fewer (each code shown two or three
    /// times) the blending candidates are left out too, in `decoder
    /// evaluate`'s folds as in the live decoder's calibration.
    @Test func blendingCandidatesAreLeftOutOnTwentyTrialsOrFewer() throws {
        let d = Self.dataset
        let selection = Self.withAndWithoutBlend()
        let codes = (0..<d.header.nClasses).map(d.stimulus(ofClass:))
        func ranked(first count: Int) throws -> [FitCandidate] {
            try selection.select(labels: Array(d.labels.prefix(count)).map(Int.init), codes: codes, sampleRate: d.header.fs) {
                Array(trials($0).prefix(count))
            }.rankings.map(\.candidate)
        }
        #expect(try ranked(first: selection.fewestTrialsToBlend) == [FitCandidate()])
        #expect(try ranked(first: selection.fewestTrialsToBlend + 1).count == 2)
    }

    @Test(.tags(.heavy), .heavyComputation) func nestedEvaluationReportsEachFoldsChoice() throws {
        var evaluation = OfflineEvaluation()
        evaluation.folds = 3
        evaluation.lengths = [1, 2]
        var selection = SettingsSelection()
        selection.candidates = Array(FitCandidate.standardGrid.prefix(4))
        evaluation.selection = selection
        let report = try evaluation.run(Self.dataset)
        #expect(report.choices.count == 3)
        #expect(report.choices.allSatisfy { $0.rankings.count == 3 && $0.accuracy >= $0.best - $0.standardError })
        #expect(report.rows.last!.accuracy >= 0.9)
    }

    @Test func theStandardGridStartsWithTheDefaultsAndNamesEveryChoice() {
        #expect(FitCandidate.standardGrid.first!.summary == "refe, latency 0 ms + 0.30 s, no whitening, 3 Hz high-pass")
        #expect(FitCandidate.standardGrid.count == 48 && FitCandidate.standardGrid.contains(FitCandidate()))
        #expect(Set(FitCandidate.standardGrid.map(\.summary)).count == FitCandidate.standardGrid.count)
        #expect(FitCandidate().summary == "refe, latency estimated + 0.30 s, whitening 0.08 s, 3 Hz high-pass")
    }
}

@Suite struct MainsDetectorTests {
    func signal(line: Double?, rate: Double = 250, seconds: Double = 20) -> [[Double]] {
        var g = SeededGenerator(seed: 3)
        return (0..<4).map { c in
            (0..<Int(rate * seconds)).map { i in
                let noise = Double.random(in: -10...10, using: &g)
                return noise + (line.map { 30 * sin(2 * .pi * $0 * Double(i) / rate + Double(c)) } ?? 0)
            }
        }
    }

    @Test func findsFiftyAndSixtyHertzAndNothingInCleanData() {
        #expect(MainsDetector.detect(signal(line: 50), sampleRate: 250) == 50)
        #expect(MainsDetector.detect(signal(line: 60), sampleRate: 250) == 60)
        #expect(MainsDetector.detect(signal(line: 60, rate: 2048, seconds: 4), sampleRate: 2048) == 60)
        #expect(MainsDetector.detect(signal(line: nil), sampleRate: 250) == nil)
        #expect(MainsDetector.detect(signal(line: 50, rate: 100), sampleRate: 100) == nil, "50 Hz is the Nyquist frequency at 100 Hz")
    }

    @Test func harmonicsAreNotchedBelowNyquist() {
        let p = Preprocessor(sampleRate: 250, channels: 1, lineFrequency: 50, harmonics: true)
        // High-pass (1 section), notches at 50 and 100 Hz (150 is past 125 Hz).
        #expect(p.filter.sections.count == 3)
        #expect(Preprocessor(sampleRate: 250, channels: 1, lineFrequency: 50).filter.sections.count == 2)
    }
}
