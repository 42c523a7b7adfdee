import ArgumentParser
import Decoding
import Foundation
import IOThreads
import Simulation

/// `noisetag decoder simulate`: records a trials dataset (Protocols/dataset.md)
/// from the simulated amplifier and user (Protocols/simulator.md).
struct DecoderSimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated calibration dataset (Gold codes at 60 Hz, 2 frames per bit, 4.2 s trials).")

    @OptionGroup var destination: DatasetFolderOption

    @Option(parsing: .unconditional, help: "Number of classes (codes), 2 to 65.")
    var classes = 9

    @Option(parsing: .unconditional, help: "Number of trials, targets in balanced random order.")
    var trials = 90

    @Option(parsing: .unconditional, help: "Response-to-background power ratio (see Protocols/simulator.md).")
    var snr = SimulationSettings().snr

    @Option(parsing: .unconditional, help: "Seed of the subject, the noise and the target order.")
    var seed: UInt64 = 1

    @Option(help: "Display latency in milliseconds.")
    var latency = SimulationSettings().displayLatency * 1000

    @Option(parsing: .unconditional, help: "Seconds of stimulation per trial.")
    var seconds = 4.2

    @Flag(help: "The user looks at none of the codes (labels still name the cue): idle EEG for `evaluate --idle`.")
    var idle = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Seed of the amplifier's noise when it should differ from --seed (another session of the same subject).", valueName: "SEED"))
    var noiseSeed: UInt64?

    func validate() throws {
        guard (2...65).contains(classes) else { throw ValidationError("--classes: must be 2 to 65, got \(classes)") }
        guard trials >= 1 else { throw ValidationError("--trials: must be at least 1, got \(trials)") }
        guard snr >= 0, snr.isFinite else { throw ValidationError("--snr: must be a non-negative number, got \(snr)") }
        guard latency >= 0, latency.isFinite else { throw ValidationError("--latency: must be a non-negative number of ms, got \(latency)") }
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds: must be a finite number above 0, got \(seconds)") }
        // The trials and the continuous recording they are cut from, as float32, before anything is allocated.
        let settings = SimulationSettings(), simulation = DatasetSimulation(classes: classes, trials: 1, seed: seed)
        let bytes = Double(trials) * Double(settings.channels) * (seconds + simulation.gapDuration) * settings.sampleRate * 4 * 2
        guard bytes <= 2e9 else {
            throw ValidationError(String(format: "--trials %d of --seconds %g: the dataset would take %.1f GB (at most 2 GB)", trials, seconds, bytes / 1e9))
        }
    }

    func run() throws {
        var simulation = DatasetSimulation(classes: classes, trials: trials, seed: seed)
        simulation.settings.snr = snr
        simulation.settings.displayLatency = latency / 1000
        simulation.trialDuration = seconds
        simulation.looksAtTarget = !idle
        simulation.noiseSeed = noiseSeed
        do {
            let dataset = try simulation.record()
            try dataset.write(to: destination.url)
            let h = dataset.header
            print("wrote \(destination.out): \(h.nTrials) trials × \(h.nChannels) channels × \(h.nSamples) samples at \(Int(h.fs)) Hz, \(h.nClasses) classes")
        } catch {
            FileHandle.standardError.writeIfOpen(Data("noisetag decoder simulate: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
