import Decoding
import Foundation

extension TrialsDataset {
    /// The trials dataset in `folder`, for a command: a dataset that cannot
    /// be read is a ``CommandFailure`` naming the folder, so that a bad
    /// `--idle` folder is told from a bad dataset.
    static func read(folder: String) throws -> TrialsDataset {
        do { return try read(from: URL(fileURLWithPath: folder)) } catch { throw CommandFailure("\(folder): \(error)") }
    }
}
