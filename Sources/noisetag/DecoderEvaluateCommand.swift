import ArgumentParser
import Decoding
import Foundation

/// `noisetag decoder evaluate`: 5-fold chronological cross-validation of the
/// reference decoder on a trials dataset.
///
/// ```swift
/// NoisetagCommand.main(["decoder", "evaluate", "sim9", "--plot", "sim9.svg"])
/// ```
struct DecoderEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Cross-validate the reference decoder: accuracy, ITR and predicted error at 0.5, 1, 2 and 4 s.")

    @Argument(help: ArgumentHelp("A trials dataset folder (Protocols/dataset.md).", valueName: "DIR"))
    var directory: String

    @Option(help: ArgumentHelp("A trials dataset recorded while the user looked at none of the codes (e.g. `decoder simulate --idle`): every fold's decoder listens to it and its presses count as false.", valueName: "IDLE_DIR"))
    var idle: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write an SVG with the decoding curve, the responses and the spatial pattern.", valueName: "FILE.svg"))
    var plot: String?

    @Flag(help: "Evaluate one fixed setting (the defaults, or --event, --latency, --whitening, --low-pass) instead of choosing the settings in each fold by nested cross-validation.")
    var fixed = false

    @Option(help: "Event definition: refe (rising and falling edges) or duration (implies --fixed).")
    var event: EventDefinition?

    @Option(help: ArgumentHelp("Use this stimulus-to-response latency instead of estimating it (implies --fixed).", valueName: "MS"))
    var latency: Double?

    @Option(help: ArgumentHelp("Seconds of past samples the temporal whitening predicts from (0: score the filtered EEG as it is, as pyntbci's rCCA does; implies --fixed).", valueName: "S"))
    var whitening: Double?

    @Option(help: ArgumentHelp("Seconds of response modelled after each event (implies --fixed).", valueName: "S"))
    var encodingLength: Double?

    @Option(help: ArgumentHelp("Low-pass edge of the band in Hz (implies --fixed; default none: 3 Hz high-pass only).", valueName: "HZ"))
    var lowPass: Double?

    @Option(help: ArgumentHelp("Mains frequency to notch, or auto: found in the recording and notched with its harmonics (50 Hz alone when none stands out).", valueName: "HZ|auto"))
    var lineFrequency: String = "auto"

    @Option(help: "Re-reference the channels before filtering: none (as recorded) or average (common average).")
    var reference: ChannelReference = .asRecorded

    @Option(help: "Number of chronological folds.")
    var folds = 5

    @Option(help: "Inner chronological folds that calibrate the certainty on each fold's training trials.")
    var calibrationFolds = OfflineEvaluation().calibrationFolds

    @Option(help: "Target error rate for the recommended certainty.")
    var targetError = 0.05

    func validate() throws {
        if let latency, !(latency.isFinite && latency >= 0) {
            throw ValidationError("--latency: must be a non-negative number of ms, got \(latency)")
        }
        if let whitening, !(whitening.isFinite && (0...1).contains(whitening)) {
            throw ValidationError("--whitening: must be 0 to 1 seconds, got \(whitening)")
        }
        if let encodingLength, !(encodingLength.isFinite && encodingLength > 0 && encodingLength <= 2) {
            throw ValidationError("--encoding-length: must be above 0 and at most 2 seconds, got \(encodingLength)")
        }
        if let lowPass, !(lowPass.isFinite && lowPass > 3) {
            throw ValidationError("--low-pass: must be above the 3 Hz high-pass, got \(lowPass)")
        }
        guard lineFrequency == "auto" || Double(lineFrequency).map({ $0 > 0 && $0.isFinite }) == true else {
            throw ValidationError("--line-frequency: a frequency in Hz or auto, got \(lineFrequency)")
        }
        guard calibrationFolds >= 2 else { throw ValidationError("--calibration-folds: must be at least 2, got \(calibrationFolds)") }
        guard folds >= 2 else { throw ValidationError("--folds: must be at least 2, got \(folds)") }
        guard targetError > 0, targetError < 1 else { throw ValidationError("--target-error: must be between 0 and 1, got \(targetError)") }
    }

    func run() throws {
        do {
            let dataset = try TrialsDataset.read(from: URL(fileURLWithPath: directory))
            var evaluation = OfflineEvaluation()
            evaluation.folds = folds
            evaluation.calibrationFolds = calibrationFolds
            evaluation.targetErrorRate = targetError
            evaluation.lineFrequency = Double(lineFrequency)
            evaluation.reference = reference
            if fixed || event != nil || latency != nil || whitening != nil || encodingLength != nil || lowPass != nil {
                if let event { evaluation.settings.event = event }
                evaluation.settings.fixedLatency = latency.map { $0 / 1000 }
                if let whitening { evaluation.settings.whiteningLength = whitening }
                if let encodingLength { evaluation.settings.encodingLength = encodingLength }
                evaluation.lowPass = lowPass
            } else {
                evaluation.selection = SettingsSelection()
            }
            let idleData = try idle.map { try TrialsDataset.read(from: URL(fileURLWithPath: $0)) }
            let report = try evaluation.run(dataset, idle: idleData)
            if let plot {
                try Data(EvaluationPlot(report: report).svg.utf8).write(to: URL(fileURLWithPath: plot))
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(Self.text(report), terminator: "")
            }
        } catch {
            FileHandle.standardError.write(Data("noisetag decoder evaluate: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    static func text(_ r: EvaluationReport) -> String {
        func f(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }
        var out = "\(r.trials) trials, \(r.classes) classes, \(r.channels) channels at \(f(r.sampleRate, 0)) Hz"
            + (r.recordedSampleRate > r.sampleRate * 1.01 ? " (decimated from \(f(r.recordedSampleRate, 0)) Hz)" : "")
            + "; \(r.folds) chronological folds\n"
        out += "length_s  accuracy  itr_bpm  predicted_err  actual_err\n"
        for row in r.rows {
            out += [f(row.seconds, 1).padding(toLength: 8, withPad: " ", startingAt: 0),
                    f(row.accuracy).padding(toLength: 8, withPad: " ", startingAt: 0),
                    f(row.itr, 1).padding(toLength: 7, withPad: " ", startingAt: 0),
                    f(row.predictedError).padding(toLength: 13, withPad: " ", startingAt: 0),
                    f(row.actualError)].joined(separator: "  ") + "\n"
        }
        out += "fit \(f(r.fitSeconds)) s per fold (calibrating certainty \(f(r.calibrationSeconds)) s); "
        out += "update \(f(r.updateMicroseconds, 1)) µs per \(r.classes)-class 100 ms step\n"
        if let mains = r.mainsFrequency { out += "mains found at \(f(mains, 0)) Hz: notched with its harmonics\n" }
        for (fold, choice) in r.choices.enumerated() { out += "fold \(fold + 1) chose \(choice.summary)\n" }
        out += "latency \(f(r.latency * 1000, 1)) ms (folds: \(r.latencies.map { f($0 * 1000, 0) }.joined(separator: ", ")) ms)\n"
        out += "recommended certaintyRequiredForPress \(f(r.recommendedCertainty, 5)) for \(f(r.targetErrorRate * 100, 0)) % errors; "
        out += "pressing there: \(f(r.pressedFraction * 100, 0)) % of trials pressed after \(f(r.meanPressSeconds, 2)) s on average, "
        out += "\(f(r.pressAccuracy * 100, 1)) % right\n"
        if r.idleMinutes > 0 {
            out += "idle: \(r.idlePresses) false presses in \(f(r.idleMinutes, 1)) min of idle EEG "
            out += "(\(f(r.idlePressesPerMinute * 10, 2)) per 10 min; every fold's decoder listened to all of it)\n"
        }
        return out
    }
}

extension EventDefinition: ExpressibleByArgument {}

extension ChannelReference: ExpressibleByArgument {}
