import ArgumentParser

/// `noisetag recordings`: list recordings and show what one holds.
///
/// ```swift
/// NoisetagCommand.main(["recordings", "list", "--json"])
/// ```
struct RecordingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordings",
        abstract: "List recordings and show what one holds.",
        discussion: "The folder format is described in Protocols/recordings.md.",
        subcommands: [RecordingsListCommand.self, RecordingsShowCommand.self]
    )
}
