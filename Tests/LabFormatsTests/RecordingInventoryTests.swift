import Foundation
import TestSupport
import Testing
@testable import LabFormats

@Suite struct RecordingInventoryTests {
    private func marker(_ seconds: Double, _ text: String) -> RecordingMarker {
        RecordingMarker(sample: Int(seconds * 100), seconds: seconds, text: text)
    }

    @Test func fewTextsAreListedOneByOneInOrderOfFirstAppearance() {
        let groups = RecordingInventory.groups([marker(1, "start"), marker(2, "label=3"), marker(5, "start"), marker(9, "start"), marker(9.5, "")])
        #expect(groups.map(\.text) == ["start", "label=3", ""])
        #expect(groups.map(\.count) == [3, 1, 1])
        #expect(groups[0].first == 1 && groups[0].last == 9 && groups[0].distinct == 1 && groups[0].examples == ["start"])
    }

    @Test func manyTextsAreGroupedByShapeWithExactCounts() {
        // 60 labels and a trial-start marker: 61 distinct texts, past the limit of 40.
        var markers: [RecordingMarker] = []
        for trial in 0..<120 {
            markers.append(marker(Double(trial) * 4, "start_cue;label=\(trial % 60);key=k\(trial % 60)"))
            markers.append(marker(Double(trial) * 4 + 0.5, "start_trial"))
        }
        let groups = RecordingInventory.groups(markers)
        #expect(groups.map(\.text) == ["start_cue;label=<n>;key=k<n>", "start_trial"])
        #expect(groups[0].count == 120 && groups[0].distinct == 60)
        #expect(groups[0].examples == (0..<5).map { "start_cue;label=\($0);key=k\($0)" })
        #expect(groups[1].count == 120 && groups[1].distinct == 1 && groups[1].first == 0.5 && groups[1].last == 476.5)
        #expect(RecordingInventory.shape(of: "S 12 a3b45") == "S <n> a<n>b<n>")
        #expect(RecordingInventory.shape(of: "١٢") == "١٢")  // digits outside ASCII are text
    }

    @Test func theFapraRecordingShowsItsStreamsAndMarkers() throws {
        let inventory = try RecordingInventory.read(LabFixtures.url("fapra_sub-p001_ses-s001_run-001_task-training.xdf"))
        #expect(inventory.format == .xdf && inventory.problem == nil)
        #expect(inventory.streams.map(\.name) == ["obci_eeg1", "cvep-speller-stream"])
        #expect(inventory.streams.map(\.role) == ["eeg", "markers"])
        #expect(inventory.streams.map(\.samples) == [16270, 62])
        #expect(inventory.channels.count == 8 && inventory.samples == 16270 && abs((inventory.sampleRate ?? 0) - 250.249) < 0.01)
        #expect(inventory.markerCount == 62 && inventory.markers.count == 16)
        #expect(inventory.markers.first { $0.text == "start_trial" }?.count == 10)
        #expect(inventory.trials == nil)
    }

    @Test func anXDFWithTwoMarkerStreamsListsThemAndSaysWhichOptionToGive() throws {
        let url = LabFixtures.url("formats/bci_essentials_switch_example.xdf")
        let unchosen = try RecordingInventory.read(url)
        #expect(unchosen.streams.map(\.name) == ["PythonResponse", "g.USBamp-1", "UnityMarkerStream"])
        #expect(unchosen.streams.map(\.role) == [nil, "eeg", nil])
        #expect(unchosen.problem?.contains("several marker streams") == true && unchosen.problem?.contains("--markers NAME") == true)
        #expect(unchosen.markerCount == 0 && unchosen.channels.isEmpty)
        let chosen = try RecordingInventory.read(url, markers: "UnityMarkerStream")
        #expect(chosen.problem == nil && chosen.streams.map(\.role) == [nil, "eeg", "markers"])
        #expect(chosen.markers.map(\.text) == ["Trial Started", "switch,3,1,2", "Trial Ends", "switch,3,2,2", "switch,3,0,2", "Training Complete"])
        #expect(chosen.markers.map(\.count) == [10, 15, 10, 20, 15, 1])
    }

    @Test func channelsTheImportLeavesOutByUnitAreListedAndWarnedOf() throws {
        let inventory = try RecordingInventory.read(LabFixtures.url("formats/brainvision/test.vhdr"))
        #expect(inventory.channels.count == 32 && inventory.channels.contains("CP5"))
        #expect(inventory.warnings.contains { $0.hasPrefix("6 channel(s) not in a voltage unit left out: CP5 (BS), CP6 (µS), HL") })
    }

    @Test func aSavefileGivesItsTrials() throws {
        let inventory = try RecordingInventory.read(LabFixtures.url("mindaffectBCI_exampledata.txt"))
        #expect(inventory.format == .savefile && inventory.trials == 10 && inventory.classes == 9)
        #expect(inventory.samples == 44406 && inventory.channels.count == 4)
        #expect(abs((inventory.trialSeconds ?? 0) - 4.2) < 0.01)
    }

    @Test func aFileOfTrialsIsNoContinuousRecording() {
        let message = LabFixtures.message { _ = try ContinuousRecording.read(LabFixtures.url("mindaffectBCI_exampledata.txt"), format: .savefile) }
        #expect(message == "mindaffectBCI_exampledata.txt: a savefile carries its own trials, not a continuous recording with markers")
    }

    @Test func whatCannotBeReadIsOneLine() throws {
        let missing = LabFixtures.message { _ = try RecordingInventory.read(URL(fileURLWithPath: "/no/such.bdf")) }
        #expect(missing == "/no/such.bdf: no such file or folder")
        let cut = try LabFixtures.scratch("cut.bdf", Array([UInt8](try Data(contentsOf: LabFixtures.url("formats/Newtest17-256.bdf"))).prefix(600)))
        #expect(LabFixtures.message { _ = try RecordingInventory.read(cut) }.hasPrefix("cut.bdf"))
    }
}
