import Foundation
import Testing
@testable import NoiseTagging

@Suite("Reading recording files back")
struct RecordingFileReaderTests {
    @Test("csvRows undoes the quoting the writer applies and leaves out a last line cut off by a crash")
    func csvRowsOfAPressesFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("presses.csv")
        let cells = [["time", "label"], ["1.5", "say \"hi\", twice"], ["3", "a,b"], ["2", ""]]
        let text = cells.map { CSVRow.line($0) + "\n" }.joined() + "4,cut off by a cra"
        try Data(text.utf8).write(to: url)
        let reader = RecordingFileReader(url)
        #expect(reader.csvRows() == cells)
        #expect(reader.endsWithPartialLine)
    }

    @Test("csvRows of a missing file is empty")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        #expect(RecordingFileReader(folder.url.appendingPathComponent("none.csv")).csvRows().isEmpty)
    }
}
