import ArgumentParser

/// `noisetag dataset`: tools for trials datasets (Protocols/dataset.md).
///
/// ```swift
/// NoisetagCommand.main(["dataset", "import", "session.xdf", "--out", "ds", "--trial-start", "^start_trial$",
///                       "--label", "label=(\\d+)", "--codes", "codes.npz"])
/// ```
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Make trials datasets from lab recordings.",
        subcommands: [DatasetImportCommand.self]
    )
}
