import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
@testable import LabFormats

@Suite struct LabFormatTests {
    @Test func aPipeOrADeviceIsRefusedByNameNotWaitedOn() throws {
        // A FIFO with no writer: opening it would wait for ever, with or without --format.
        let pipe = try ScratchFolder.make().appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let refusal = "\(pipe.path): a pipe, not a regular file: save it to a file first and give that"
        #expect(LabFixtures.message { _ = try LabFormat.resolve(nil, pipe) } == refusal)
        #expect(LabFixtures.message { _ = try LabFormat.resolve(.savefile, pipe) } == refusal)
        #expect(LabFixtures.message { _ = try CodesFile.read(pipe) } == refusal)
        #expect(LabFixtures.message { _ = try CodesFile.read(URL(fileURLWithPath: "/dev/zero")) }
            == "/dev/zero: a device, not a regular file: save it to a file first and give that")
    }

    @Test func formatsAreDetectedFromTheContent() throws {
        #expect(try LabFormat.detect(LabFixtures.url("fapra_sub-p001_ses-s001_run-001_task-training.xdf")) == .xdf)
        #expect(try LabFormat.detect(LabFixtures.url("mindaffectBCI_exampledata.txt")) == .savefile)
        #expect(try LabFormat.detect(LabFixtures.url("formats/Newtest17-256.bdf")) == .bdf)
        #expect(try LabFormat.detect(LabFixtures.url("formats/test_edf_overlapping_annotations.edf")) == .edf)
        #expect(try LabFormat.detect(LabFixtures.url("formats/brainvision/test.vhdr")) == .brainvision)
        let bids = try LabFixtures.scratch("sub-01/eeg/sub-01_task-x_eeg.bdf", [0xFF] + Array("BIOSEMI".utf8))
        #expect(try LabFormat.detect(bids.deletingLastPathComponent().deletingLastPathComponent()) == .bids)
        // A folder is a recording only when it holds one; a trials dataset folder is named for what it is.
        #expect(LabFixtures.message { _ = try LabFormat.detect(LabFixtures.url("formats")) } == "formats: holds no *_eeg.bdf, *_eeg.edf or *_eeg.vhdr file")
        let dataset = try LabFixtures.scratch("dataset/header.json", Array("{}".utf8)).deletingLastPathComponent()
        #expect(LabFixtures.message { _ = try LabFormat.detect(dataset) }
            == "\(dataset.path): a trials dataset folder (header.json), not a recording: decoder evaluate and decoder stream read it as it is")
        // A forced edf or bdf yields to the content when it is the other; other forced formats stand.
        #expect(try LabFormat.resolve(.edf, LabFixtures.url("formats/Newtest17-256.bdf")) == .bdf)
        #expect(try LabFormat.resolve(.npz, LabFixtures.url("formats/Newtest17-256.bdf")) == .npz)
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
        #expect(LabFixtures.message { _ = try LabFormat.detect(LabFixtures.url("formats/brainvision/test.eeg")) }
            == "test.eeg: part of a BrainVision recording: give its header file, test.vhdr")
        #expect(LabFixtures.message { _ = try LabFormat.detect(URL(fileURLWithPath: "/nonexistent")) } == "/nonexistent: no such file or folder")
    }
}
