@testable import DecoderService
import Testing

/// The decoder's "signal quality:" log line: problems grouped, channels as ranges,
/// so that 64 channels without data make one short line, not 64 entries.
@Suite struct SignalQualityLineTests {
    @Test func problemsAreGroupedWithTheirChannelsAsRanges() {
        #expect(ContinuousPreprocessing.qualityLine(Array(repeating: "no data", count: 64)) == "no data: every channel")
        #expect(ContinuousPreprocessing.qualityLine([nil, nil, "flat", nil, "flat", "flat", "flat", nil, "clipped"])
            == "flat: channels 3, 5-7; clipped: channel 9")
        #expect(ContinuousPreprocessing.qualityLine(["flat"]) == "flat: channel 1")
        #expect(ContinuousPreprocessing.qualityLine([nil, nil]) == nil)
    }
}
