import ArgumentParser
import Simulation

/// The simulated subject's `--snr` and `--seed`, with the same meaning and
/// defaults in every command that runs the simulated amplifier in this
/// process (`decoder serve --simulate`, `decoder amplifier`, `demo`). Each
/// command checks them with ``check()`` and refuses ``given`` where it runs
/// no simulated subject.
struct SimulatedSubjectOptions: ParsableArguments {
    @Option(name: .customLong("snr"), parsing: .unconditional,
            help: "Simulated SNR (power ratio). (default: \(SimulationSettings().snr))")
    var givenSNR: Double?

    @Option(name: .customLong("seed"), parsing: .unconditional, help: "Simulated subject and noise seed. (default: 1)")
    var givenSeed: UInt64?

    /// The SNR the simulated amplifier uses.
    var snr: Double { givenSNR ?? SimulationSettings().snr }
    /// The seed of the simulated subject and its noise.
    var seed: UInt64 { givenSeed ?? 1 }
    /// The options given on the command line, by name.
    var given: [String] { (givenSNR == nil ? [] : ["--snr"]) + (givenSeed == nil ? [] : ["--seed"]) }

    /// Refuses an SNR that is not a positive number.
    func check() throws {
        guard snr.isFinite, snr > 0 else { throw ValidationError("--snr \(snr): must be a positive number") }
    }
}
