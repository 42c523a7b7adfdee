import ArgumentParser

/// The `noisetag` command-line tool: codebooks, demo, decoder, recordings, benchmarks.
@main
struct NoisetagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noisetag",
        abstract: "Noise-tagging brain-computer-interface engine tools.",
        subcommands: [])
}
