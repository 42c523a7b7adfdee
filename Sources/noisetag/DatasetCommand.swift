import ArgumentParser

/// `noisetag dataset`: tools for trials datasets (Protocols/dataset.md).
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Make trials datasets from lab recordings.",
        subcommands: [DatasetImportCommand.self, DatasetInspectCommand.self]
    )
}
