import Decoding
import Foundation

extension TrialsDataset {
    /// The trials dataset in `folder`, for a command: a dataset that cannot
    /// be read is a ``CommandFailure`` naming the folder, so that a bad
    /// `--idle` folder is told from a bad dataset.
    static func read(folder: String) throws -> TrialsDataset {
        let url = URL(fileURLWithPath: folder)
        do { return try read(from: url) } catch DatasetError.unreadable(let file, let reason) where file == url.path {
            // The error is about the folder itself (it is missing): name it once, as given.
            throw CommandFailure("\(folder): \(reason)")
        } catch { throw CommandFailure("\(folder): \(error)") }
    }
}
