import ArgumentParser

/// `noisetag decoder`: the live reference decoder (the default, `serve`) and its offline tools.
///
/// ```swift
/// NoisetagCommand.main(["decoder", "--simulate"])
/// NoisetagCommand.main(["decoder", "simulate", "--out", "sim9"])
/// NoisetagCommand.main(["decoder", "evaluate", "sim9"])
/// ```
struct DecoderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoder",
        abstract: "Run the live reference decoder; simulate calibration datasets and evaluate the decoder on them.",
        subcommands: [DecoderServeCommand.self, DecoderSimulateCommand.self, DecoderEvaluateCommand.self, DecoderAmplifierCommand.self,
                      DecoderStreamCommand.self],
        defaultSubcommand: DecoderServeCommand.self
    )
}
