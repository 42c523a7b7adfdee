import ArgumentParser
import Simulation

/// The simulated subject's `--snr` and `--seed`, with the same meaning and
/// defaults in every command that runs the simulated amplifier in this
/// process (`decoder serve --simulate`, `decoder amplifier`, `demo`). Each
/// command checks `--snr` in its own `validate()`.
struct SimulatedSubjectOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Simulated SNR (power ratio).")
    var snr = SimulationSettings().snr

    @Option(parsing: .unconditional, help: "Simulated subject and noise seed.")
    var seed: UInt64 = 1
}
