import ArgumentParser

/// `noisetag decoder`: the reference decoder's offline tools.
///
/// ```swift
/// NoisetagCommand.main(["decoder", "simulate", "--out", "sim9"])
/// NoisetagCommand.main(["decoder", "evaluate", "sim9"])
/// ```
struct DecoderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Simulate calibration datasets and evaluate the reference decoder on them.",
        subcommands: [DecoderSimulateCommand.self, DecoderEvaluateCommand.self]
    )
}
