import ArgumentParser

/// `noisetag session`: run study sessions from a protocol and report on them.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Run study sessions from a protocol and report on them.",
        discussion: "Protocols, the session folder and its steps.jsonl are described in Protocols/session.md.",
        subcommands: [SessionRunCommand.self, SessionCheckCommand.self, SessionReportCommand.self]
    )
}
