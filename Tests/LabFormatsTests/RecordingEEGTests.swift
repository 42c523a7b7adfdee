import DecoderService
import Foundation
import LabFormats
import Testing
import UtopiaProtocol

/// A recording's trials as the live decoder took them.
@Suite struct RecordingEEGTests {
    /// A press ends a prediction trial, as the live decoder ends it: what a
    /// presenter flashes after the SELECTION (feedback) is not part of it. In
    /// calibration a SELECTION ends nothing.
    @Test func aSelectionEndsAPredictionTrialOnly() throws {
        var b = RecordingFolderBuilder()
        b.add(.dataHeader(DataHeader(timestamp: b.stamp(0), channelCount: 2, sampleRate: 100, labels: ["Oz", "Pz"])), at: 0)
        func trial(mode: String, at start: Double) {
            b.add(.modeChange(ModeChange(timestamp: b.stamp(start), newMode: mode)), at: start)
            b.add(.newTarget(NewTarget(timestamp: b.stamp(start + 0.1))), at: start + 0.1)
            for frame in 0..<40 {
                let t = start + 0.2 + Double(frame) / 60
                if frame == 30 { b.add(.selection(Selection(timestamp: b.stamp(t), objID: 1)), at: t) }
                b.add(.stimulusEvent(StimulusEvent(timestamp: b.stamp(t), objIDs: [0, 1], objStates: [UInt8(frame % 2), UInt8(frame % 2)])), at: t)
            }
        }
        trial(mode: "Prediction.static", at: 1)
        trial(mode: "Calibration.supervised", at: 3)
        for end in stride(from: 9, to: 500, by: 10) {
            b.add(.dataPacket(DataPacket(timestamp: b.stamp(Double(end) / 100), samples: (0..<10).map { _ in [1, 2] })), at: Double(end) / 100)
        }
        b.records.sort { $0.time < $1.time }
        let eeg = try RecordingEEG(records: b.records, source: "in.csv")
        #expect(eeg.flickers.count == 2)
        let pressed = try #require(eeg.flickers.first), cued = try #require(eeg.flickers.last)
        #expect(abs(pressed.lastEvent - Double(b.ms(1.2 + 29.0 / 60))) < 1e-6, "ends with the last frame before the press")
        #expect(abs(cued.lastEvent - Double(b.ms(3.2 + 39.0 / 60))) < 1e-6)
    }
}
