import Foundation
import NoiseTagging

/// One row of a recording's `presses.csv` (Protocols/recordings.md §3):
/// a press by the brain (the decoder), a touch or a timeout.
public struct RecordedPress: Sendable, Equatable {
    /// Engine seconds.
    public var time: Double
    /// The trial it ended; nil for a touch between trials.
    public var trial: Int?
    /// The pressed control's identifier.
    public var control: String
    /// Its object ID; nil when it had none.
    public var objectID: Int?
    /// `brain`, `touch` or `timeout`.
    public var source: String
    /// 1 − Perr of the deciding prediction; nil for touches.
    public var certainty: Double?
    /// The cued target's identifier (training and Verify).
    public var target: String?

    /// The presses in the file at `url`, by its header's column names;
    /// empty when it is missing; rows without a time are skipped.
    public static func read(_ url: URL) -> [RecordedPress] {
        let rows = RecordingFileReader(url).csvRows()
        guard let header = rows.first else { return [] }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        let time = column("time"), trial = column("trial"), control = column("control"), object = column("object_id")
        let source = column("source"), certainty = column("certainty"), target = column("target")
        func cell(_ row: [String], _ index: Int?) -> String? {
            guard let index, index < row.count, !row[index].isEmpty else { return nil }
            return row[index]
        }
        return rows.dropFirst().compactMap { row in
            guard let t = cell(row, time).flatMap(Double.init) else { return nil }
            return RecordedPress(time: t, trial: cell(row, trial).flatMap { Int($0) }, control: cell(row, control) ?? "",
                                 objectID: cell(row, object).flatMap { Int($0) }, source: cell(row, source) ?? "unknown",
                                 certainty: cell(row, certainty).flatMap(Double.init), target: cell(row, target))
        }
    }
}
