import Foundation
import Testing
@testable import LabFormats

@Suite struct LabFormatTests {
    @Test func formatsAreDetectedFromTheContent() throws {
        #expect(try LabFormat.detect(LabFixtures.url("fapra_sub-p001_ses-s001_run-001_task-training.xdf")) == .xdf)
        #expect(try LabFormat.detect(LabFixtures.url("mindaffectBCI_exampledata.txt")) == .savefile)
        #expect(try LabFormat.detect(LabFixtures.url("formats/Newtest17-256.bdf")) == .bdf)
        #expect(try LabFormat.detect(LabFixtures.url("formats/test_edf_overlapping_annotations.edf")) == .edf)
        #expect(try LabFormat.detect(LabFixtures.url("formats/brainvision/test.vhdr")) == .brainvision)
        #expect(try LabFormat.detect(LabFixtures.url("formats")) == .bids)
        let renamed = try LabFixtures.scratch("session.dat", XDFBuilder.simple())
        #expect(try LabFormat.detect(renamed) == .xdf)
    }

    @Test func aBIDSDataFileNeedsItsEventsSibling() throws {
        let bdf = try LabFixtures.scratch("sub-01_task-x_eeg.bdf", [0xFF] + Array("BIOSEMI".utf8))
        #expect(try LabFormat.detect(bdf) == .bdf)
        try Data("onset\tduration\n".utf8).write(to: bdf.deletingLastPathComponent().appendingPathComponent("sub-01_task-x_events.tsv"))
        #expect(try LabFormat.detect(bdf) == .bids)
    }

    @Test func unknownGzipAndAbsentFilesAreOneLine() throws {
        let gz = try LabFixtures.scratch("a.gz", [0x1F, 0x8B, 8, 0])
        #expect(LabFixtures.message { _ = try LabFormat.detect(gz) } == "a.gz: gzip-compressed: gunzip it first")
        let junk = try LabFixtures.scratch("junk.bin", [0, 1, 2])
        #expect(LabFixtures.message { _ = try LabFormat.detect(junk) }.hasPrefix("junk.bin: not a format noisetag imports"))
        #expect(LabFixtures.message { _ = try LabFormat.detect(URL(fileURLWithPath: "/nonexistent")) } == "/nonexistent: no such file or folder")
    }
}
