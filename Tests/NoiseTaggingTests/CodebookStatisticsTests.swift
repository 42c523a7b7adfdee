import Foundation
import Testing
@testable import NoiseTagging

@Suite("Codebook statistics")
struct CodebookStatisticsTests {
    @Test func mSequenceOffPeakAutocorrelationIsMinusOneOverN() throws {
        for taps: [UInt8] in [[1, 0, 0, 0, 0, 1], [0, 0, 1, 0, 1], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]] {
            #expect(MSequence.isMaximalLength(taps: taps))
            let bits = try MSequence.make(taps: taps)
            let stats = CodebookStatistics(try Codebook(codes: [bits]))
            #expect(stats.worstOffPeakAutocorrelation == -1 / Double(bits.count))
            #expect(stats.worstCrossCorrelation == nil)
            #expect(stats.balance.mean == Double((bits.count + 1) / 2) / Double(bits.count))
        }
    }

    @Test func goldFamilyCrossCorrelationIsBoundedBy15Over63() throws {
        let stats = CodebookStatistics(try GoldCodes.make(includingMSequences: true))
        #expect(stats.count == 65 && stats.length == 63)
        #expect(stats.worstCrossCorrelation == 15.0 / 63)
        #expect(stats.worstOffPeakAutocorrelation == 15.0 / 63)
    }

    @Test func standardCodebookFigures() {
        let stats = CodebookStatistics(.standard)
        #expect(stats.balance == .init(min: 0.5, mean: 0.5, max: 0.5))
        #expect(stats.worstCrossCorrelation == 34.0 / 126)
        #expect(stats.worstOffPeakAutocorrelation == 34.0 / 126)
    }

    @Test func smallHandComputedCase() throws {
        // Bipolar [+1,+1,-1,-1] and [+1,-1,+1,-1]: cross-correlation 0 at every lag.
        let stats = CodebookStatistics(try Codebook(codes: [[1, 1, 0, 0], [1, 0, 1, 0]]))
        #expect(stats.worstCrossCorrelation == 0)
        // 1010 repeats itself after 2 states: its lag-2 autocorrelation is 1.
        #expect(stats.worstOffPeakAutocorrelation == 1)
        // 1100: lags 1 and 3 give 0, lag 2 gives −1.
        #expect(CodebookStatistics(try Codebook(codes: [[1, 1, 0, 0]])).worstOffPeakAutocorrelation == 0)
        #expect(stats.balance == .init(min: 0.5, mean: 0.5, max: 0.5))
        // Identical codes correlate fully; non-zero states count as "on".
        #expect(CodebookStatistics(try Codebook(codes: [[0, 2, 1], [0, 1, 1]])).worstCrossCorrelation == 1)
    }

    @Test func singleStateCodesHaveNoOffPeakLag() throws {
        let stats = CodebookStatistics(try Codebook(codes: [[1], [0]]))
        #expect(stats.worstOffPeakAutocorrelation == nil)
        #expect(stats.worstCrossCorrelation == -1)
    }

    @Test func isFastForTheStandardBook() {
        let start = Date()
        for _ in 0..<5 { _ = CodebookStatistics(.standard) }
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
