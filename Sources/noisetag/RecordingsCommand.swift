import ArgumentParser

/// `noisetag recordings`: list recordings, show what one holds, export one as BIDS-EEG.
struct RecordingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordings",
        abstract: "List recordings, show what one holds, export one as BIDS-EEG.",
        discussion: "The folder format is described in Protocols/recordings.md.",
        subcommands: [RecordingsListCommand.self, RecordingsShowCommand.self, RecordingsExportCommand.self]
    )
}
