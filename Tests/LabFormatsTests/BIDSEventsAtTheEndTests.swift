import Foundation
import TestSupport
import Testing
@testable import LabFormats
import UtopiaProtocol

/// Events at the end of the EEG: the decoder's last MODECHANGE as the app closes.
@Suite struct BIDSEventsAtTheEndTests {
    @Test func theDecoderSetIdleAsTheEEGStopsIsOnTheLastSampleAndLaterIsLeftOut() throws {
        let dir = try BIDSExporterTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (after, name) in [(0.5, "2026-11-25 10.00.00 +0000 idle"), (3.0, "2026-11-25 10.00.01 +0000 later")] {
            var builder = RecordingFolderBuilder.built()
            builder.add(.modeChange(ModeChange(timestamp: builder.stamp(builder.seconds + after), newMode: "idle")), at: builder.seconds + after)
            let recording = try EngineRecording.read(try builder.write(in: dir, name: name))
            let report = try BIDSExporter.export(recording, to: dir.appendingPathComponent("bids-\(after)"), options: .init(subject: "01"))
            let events = try BIDSExporterTests.table(dir.appendingPathComponent("bids-\(after)/sub-01/eeg/sub-01_task-cvep_events.tsv"))
            if after < 2 {
                // The app closing: the decoder set idle a moment after the last packet stands on the last sample, unwarned.
                #expect(events.last?["trial_type"] == "mode/idle" && events.last?["sample"] == "599" && report.warnings.isEmpty, "\(report.warnings)")
            } else {
                #expect(!events.contains { $0["trial_type"] == "mode/idle" } && report.warnings == ["events outside the EEG left out: 1 mode/idle"])
            }
        }
    }
}
