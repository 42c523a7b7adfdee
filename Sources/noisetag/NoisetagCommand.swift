import ArgumentParser

/// The `noisetag` command line tool: one subcommand per job.
@main
struct NoisetagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noisetag",
        abstract: "Brain-pressable buttons: noise-tagging engine tools.",
        subcommands: [CodesCommand.self, DemoCommand.self, SessionCommand.self, RecordingsCommand.self, BenchCommand.self, DecoderCommand.self,
                      TerminalCheckCommand.self, ReplayCommand.self, DatasetCommand.self]
    )
}
