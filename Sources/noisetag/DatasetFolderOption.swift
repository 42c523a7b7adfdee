import ArgumentParser
import Foundation

/// The `--out DIR` of the commands that write a trials dataset
/// (`dataset import`, `decoder simulate`): the folder, created if needed.
struct DatasetFolderOption: ParsableArguments {
    @Option(help: ArgumentHelp("Folder to write (created if needed).", valueName: "DIR"))
    var out: String

    func validate() throws {
        if out.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--out: give a folder name") }
    }

    /// The folder `--out` names.
    var url: URL { URL(fileURLWithPath: out) }
}
