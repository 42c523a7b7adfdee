import ArgumentParser

/// `noisetag codes`: make and examine codebooks (MindAffect text format).
struct CodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract: "Generate and inspect noise-tag codebooks.",
        subcommands: [CodesGenerateCommand.self, CodesInspectCommand.self]
    )
}
