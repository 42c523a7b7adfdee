import ArgumentParser

/// `noisetag bench`: measures the engine's hot paths.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the engine's per-frame cost and the decoder bridge.",
        subcommands: [BenchFramesCommand.self, BenchBridgeCommand.self, BenchTerminalCommand.self, BenchReplayCommand.self]
    )
}
