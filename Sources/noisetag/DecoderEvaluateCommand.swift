import ArgumentParser
import Decoding
import Foundation
import IOThreads

/// `noisetag decoder evaluate`: 5-fold chronological cross-validation of the
/// reference decoder on a trials dataset.
struct DecoderEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Cross-validate the reference decoder: accuracy, ITR (over the read-out alone, no pause between trials) and predicted error at 0.5, 1, 2 and 4 s.")

    @Argument(help: ArgumentHelp("A trials dataset folder (Protocols/dataset.md); with several, each is evaluated and a table of them all ends the report.", valueName: "DIR"))
    var directories: [String]

    @Option(help: ArgumentHelp("A trials dataset recorded while the user looked at none of the codes (e.g. `decoder simulate --idle`): every fold's decoder listens to it and its presses count as false, at most one an idle trial: a press ends it, as live (with one dataset).", valueName: "IDLE_DIR"))
    var idle: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write an SVG with the decoding curve, the responses and the spatial pattern (with one dataset).", valueName: "FILE.svg"))
    var plot: String?

    @Flag(help: "Evaluate one fixed setting (the defaults, or --event, --latency, --whitening, --encoding-length, --low-pass, --template-blend) instead of choosing the settings in each fold by nested cross-validation.")
    var fixed = false

    @Option(help: "Event definition: refe (rising and falling edges) or duration (implies --fixed).")
    var event: EventDefinition?

    @Option(parsing: .unconditional, help: ArgumentHelp("Use this stimulus-to-response latency instead of estimating it (implies --fixed).", valueName: "MS"))
    var latency: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds of past samples the temporal whitening predicts from (0: score the filtered EEG as it is, as pyntbci's rCCA does; implies --fixed).", valueName: "S"))
    var whitening: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds of response modelled after each event (implies --fixed).", valueName: "S"))
    var encodingLength: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Low-pass edge of the band in Hz (implies --fixed; default none: 3 Hz high-pass only).", valueName: "HZ"))
    var lowPass: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Weight (0...1) of each code's averaged calibration response in its template, for codes calibration showed (implies --fixed; default 0: the reconvolution template alone).", valueName: "W"))
    var templateBlend: Double?

    @Option(help: ArgumentHelp("Mains frequency to notch, or auto: found in the recording and notched with its harmonics (50 Hz alone when none stands out).", valueName: "HZ|auto"))
    var lineFrequency: String = "auto"

    @Option(help: "Re-reference the channels before filtering: none (as recorded) or average (common average).")
    var reference: ChannelReference = .asRecorded

    @Flag(help: "Also evaluate every candidate of the selection's grid as a fixed setting on the same folds: each one's accuracy beside the selection's, best first, and how many trials the selection is behind or ahead of the best of them (accuracy and ITR only: no certainty is calibrated for the candidates; blended candidates blend on any number of trials, where the selection leaves them out up to 20).")
    var everyCandidate = false

    @Flag(help: "Also replay the trials in recorded order with their labels hidden, as a zero-training session (ZeroTrain mode): per trial the target, the control selected (or none) and when.")
    var zeroTrain = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --zero-train: unsupervised trials before the supervised decoder takes over on the learned labels (nZeroTrainTrials).", valueName: "N"))
    var zeroTrainTrials = ZeroTrainingEvaluation().zeroTrainTrials

    @Option(parsing: .unconditional, help: ArgumentHelp("With --zero-train: after the hand-over, fit again after every N pressed trials, each labelled with what was pressed (0: never).", valueName: "N"))
    var adaptEvery = ZeroTrainingEvaluation().refitEvery

    @Option(parsing: .unconditional, help: "Number of chronological folds.")
    var folds = 5

    @Option(parsing: .unconditional, help: "Inner chronological folds that calibrate the certainty on each fold's training trials (at most one a trial: more folds than trials is leave-one-out).")
    var calibrationFolds = OfflineEvaluation().calibrationFolds

    @Option(parsing: .unconditional, help: "Target error rate for the recommended certainty.")
    var targetError = 0.05

    @Option(parsing: .unconditional, help: ArgumentHelp("False presses per minute the recommended certainty allows while the user looks at none of the codes (judged on idle surrogates of each fold's training trials).", valueName: "RATE"))
    var idlePressesPerMinute = OfflineEvaluation().idlePressesPerMinute

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("give a trials dataset folder (DIR)") }
        if directories.count > 1, plot != nil || idle != nil {
            throw ValidationError("--plot and --idle take one dataset: give one DIR")
        }
        if let twice = directories.first(where: { d in directories.filter { $0 == d }.count > 1 }) {
            throw ValidationError("\(twice) is named twice")
        }
        if !zeroTrain, zeroTrainTrials != ZeroTrainingEvaluation().zeroTrainTrials || adaptEvery != ZeroTrainingEvaluation().refitEvery {
            throw ValidationError("--zero-train-trials and --adapt-every apply with --zero-train only")
        }
        if let plot {
            var isFolder: ObjCBool = false
            let folder = URL(fileURLWithPath: plot).deletingLastPathComponent().path
            if FileManager.default.fileExists(atPath: plot, isDirectory: &isFolder), isFolder.boolValue {
                throw ValidationError("--plot \(plot): a folder; give the SVG file's name")
            }
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--plot \(plot): no folder \(folder) to write it in")
            }
            guard plot.lowercased().hasSuffix(".svg") else { throw ValidationError("--plot \(plot): the plot is an SVG image: give a name ending in .svg") }
        }
        if let latency, !(latency.isFinite && latency >= 0 && latency <= 1000) {
            throw ValidationError("--latency: must be 0...1000 ms (a visual response starts within a second), got \(latency)")
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
        if let templateBlend, !(templateBlend >= 0 && templateBlend <= 1) {
            throw ValidationError("--template-blend: must be from 0 to 1, got \(templateBlend)")
        }
        guard lineFrequency == "auto" || Double(lineFrequency).map({ $0 > 0 && $0.isFinite }) == true else {
            throw ValidationError("--line-frequency: a frequency in Hz or auto, got \(lineFrequency)")
        }
        guard calibrationFolds >= 2 else { throw ValidationError("--calibration-folds: must be at least 2, got \(calibrationFolds)") }
        guard adaptEvery >= 0 else { throw ValidationError("--adapt-every: must be 0 (never) or more, got \(adaptEvery)") }
        guard zeroTrainTrials >= 1 else { throw ValidationError("--zero-train-trials: must be at least 1, got \(zeroTrainTrials)") }
        guard folds >= 2 else { throw ValidationError("--folds: must be at least 2, got \(folds)") }
        if everyCandidate, fixed || event != nil || latency != nil || whitening != nil || encodingLength != nil || lowPass != nil || templateBlend != nil {
            throw ValidationError("--every-candidate sets the selection beside every fixed setting of its grid: leave out --fixed and the settings options")
        }
        guard targetError > 0, targetError < 1 else { throw ValidationError("--target-error: must be between 0 and 1, got \(targetError)") }
        guard (0.001...60).contains(idlePressesPerMinute) else {
            throw ValidationError("--idle-presses-per-minute: must be 0.001...60, got \(idlePressesPerMinute)")
        }
    }

    func run() throws {
        var evaluated: [(folder: String, report: EvaluationReport, svg: String?)] = []
        var objects: [[String: Any]] = []
        for directory in directories {
            do {
                let (report, object, text, svg) = try evaluate(directory)
                evaluated.append((directory, report, svg))
                if var object {
                    if directories.count > 1 { object["folder"] = directory }
                    objects.append(object)
                } else {
                    print((directories.count > 1 ? "== \(directory)\n" : "") + text, terminator: directories.count > 1 ? "\n" : "")
                }
            } catch {
                // Each line names its folder (once: most errors already start with it, or with the idle dataset's).
                let named = [directory, idle].compactMap { $0 }.contains { "\(error)".hasPrefix($0) }
                let line = named ? "\(error)" : "\(directory): \(error)"
                FileHandle.standardError.writeIfOpen(Data("noisetag decoder evaluate: \(line)\n".utf8))
            }
        }
        if json, !objects.isEmpty {
            let value: Any = directories.count > 1 ? ["datasets": objects, "mean": EvaluationSummary(evaluated.map { ($0.folder, $0.report) }).jsonObject] : objects[0]
            let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else if directories.count > 1, !evaluated.isEmpty {
            var summary = EvaluationSummary(evaluated.map { ($0.folder, $0.report) })
            summary.failed = directories.count - evaluated.count
            print(summary.text, terminator: "")
        }
        if let plot, let svg = evaluated.first?.svg {
            do { try Data(svg.utf8).write(to: URL(fileURLWithPath: plot)) } catch {
                throw CommandFailure("--plot \(plot): cannot write: \((error as NSError).localizedDescription)")
            }
            (json ? FileHandle.standardError : FileHandle.standardOutput).writeIfOpen(Data("wrote \(plot)\n".utf8))
        }
        if evaluated.count < directories.count { throw ExitCode.failure }
    }

    /// One dataset's evaluation: the report, its JSON object (with `--json`)
    /// or its text, as printed for it, and the `--plot` SVG, written once
    /// the report is out.
    private func evaluate(_ directory: String) throws -> (EvaluationReport, [String: Any]?, String, String?) {
        let dataset = try TrialsDataset.read(folder: directory)
        if let line = Double(lineFrequency), line >= dataset.header.fs / 2 {
            throw CommandFailure("--line-frequency \(lineFrequency) Hz is at or above half its sample rate (\(RateText.format(dataset.header.fs)) Hz): no notch can be placed there")
        }
        var evaluation = OfflineEvaluation()
        // Trials shorter than the longest length reported (by a sample or more) also get a row at their whole length, as a live
        // calibration reports: a "4 s" trial cut at 3.98 s is read out there.
        let whole = Double(dataset.header.nSamples) / dataset.header.fs
        if Int(((evaluation.lengths.max() ?? 0) * dataset.header.fs).rounded()) > dataset.header.nSamples {
            evaluation.lengths = evaluation.lengths.filter { $0 < whole - 0.05 } + [(whole * 1000).rounded(.down) / 1000]
        }
        evaluation.folds = folds
        evaluation.calibrationFolds = calibrationFolds
        evaluation.targetErrorRate = targetError
        evaluation.idlePressesPerMinute = idlePressesPerMinute
        evaluation.lineFrequency = Double(lineFrequency)
        evaluation.reference = reference
        if fixed || event != nil || latency != nil || whitening != nil || encodingLength != nil || lowPass != nil || templateBlend != nil {
            if let event { evaluation.settings.event = event }
            evaluation.settings.fixedLatency = latency.map { $0 / 1000 }
            if let whitening { evaluation.settings.whiteningLength = whitening }
            if let encodingLength { evaluation.settings.encodingLength = encodingLength }
            if let templateBlend { evaluation.settings.templateBlend = templateBlend }
            evaluation.lowPass = lowPass
        } else {
            evaluation.selection = SettingsSelection()
        }
        let idleData = try idle.map { try TrialsDataset.read(folder: $0) }
        let report = try evaluation.run(dataset, idle: idleData)
        let candidates = everyCandidate ? try evaluation.everyCandidate(dataset) : nil
        var zeroTraining: ZeroTrainingOutcome?
        if zeroTrain {
            var replay = ZeroTrainingEvaluation()
            replay.zeroTrainTrials = zeroTrainTrials
            replay.refitEvery = adaptEvery
            replay.lineFrequency = Double(lineFrequency)
            replay.reference = reference
            replay.targetErrorRate = targetError
            replay.idlePressesPerMinute = idlePressesPerMinute
            if evaluation.selection == nil { replay.selection = nil }
            zeroTraining = try replay.run(dataset)
        }
        let svg = plot.map { _ in EvaluationPlot(report: report, zeroTraining: zeroTraining, channelNames: dataset.header.channels).svg }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            var object = try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? [String: Any] ?? [:]
            if let candidates { object["everyCandidate"] = try JSONSerialization.jsonObject(with: try encoder.encode(candidates)) }
            if let zeroTraining {
                object["zeroTrainTrials"] = try JSONSerialization.jsonObject(with: try encoder.encode(zeroTraining.trials))
                let summary = ZeroTrainingSummary(zeroTrainTrials: zeroTrainTrials, learnedLabels: zeroTraining.learnedLabels,
                                                  learnedLabelAccuracy: zeroTraining.learnedLabelAccuracy,
                                                  revisions: zeroTraining.revisions, fitProblems: zeroTraining.fitProblems,
                                                  learnSeconds: zeroTraining.learnSeconds,
                                                  wrongPressesInFirstTen: zeroTraining.wrongPresses(to: 10),
                                                  pressedRightFromEleven: zeroTraining.accuracy(from: 10),
                                                  rightAtFourSecondsFromEleven: zeroTraining.classificationAccuracy(from: 10))
                // Through the encoder: a Double put straight into the dictionary loses its fraction on Linux.
                object["zeroTraining"] = try JSONSerialization.jsonObject(with: try encoder.encode(summary))
            }
            return (report, object, "", svg)
        }
        let fixedSetting = evaluation.selection == nil
            ? "fixed setting: \(FitCandidate(lowPass: evaluation.lowPass, settings: evaluation.settings).summary)\n" : ""
        return (report, nil, Self.text(report) + fixedSetting + (candidates.map { Self.text($0, selection: report) } ?? "")
                    + (zeroTraining.map { Self.text($0, supervised: report) } ?? ""), svg)
    }

    /// `v` with `digits` decimals: how the text reports print every figure.
    static func f(_ v: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", v) }
    /// A read-out length: one decimal for the usual ones (0.5, 4.0), every digit for a whole trial's (3.975).
    static func length(_ seconds: Double) -> String {
        abs((seconds * 10).rounded() - seconds * 10) < 1e-9 ? f(seconds, 1) : String(format: "%g", seconds)
    }

    /// One line of a text table: each cell left-aligned in its column width,
    /// then the last cell as it is, two spaces between columns.
    static func row(_ cells: [(text: String, width: Int)], _ last: String) -> String {
        (cells.map { $0.text.padding(toLength: $0.width, withPad: " ", startingAt: 0) } + [last]).joined(separator: "  ") + "\n"
    }

    /// The `--every-candidate` table: the selection, then every fixed candidate best first (by mean
    /// accuracy), then the selection's lead in trials over the best of them and over the best at each length.
    static func text(_ candidates: [CandidateEvaluation], selection r: EvaluationReport) -> String {
        let lengths = r.rows.map(\.seconds)
        var out = "every candidate as a fixed setting, same folds: accuracy at "
            + lengths.map(length).joined(separator: " / ") + " s, mean\n"
        func mean(_ accuracies: [Double]) -> Double { accuracies.isEmpty ? 0 : accuracies.reduce(0, +) / Double(accuracies.count) }
        func cells(_ accuracies: [Double]) -> String { (accuracies + [mean(accuracies)]).map { f($0) }.joined(separator: "  ") }
        func curve(_ c: CandidateEvaluation) -> [Double] { c.rows.map(\.accuracy) }
        out += "\(cells(r.rows.map(\.accuracy)))  selection (chosen in each fold)\n"
        let ranked = candidates.enumerated().sorted { (mean(curve($1.element)), $0.offset) < (mean(curve($0.element)), $1.offset) }.map(\.element)
        for c in ranked { out += "\(cells(curve(c)))  \(c.candidate.summary)\n" }
        guard let best = ranked.first else { return out }
        func lead(_ other: (Int) -> Double) -> String {
            r.rows.indices.map { i in
                let trials = Int(((r.rows[i].accuracy - other(i)) * Double(r.rows[i].trials)).rounded())
                return trials > 0 ? "+\(trials)" : String(trials)
            }.joined(separator: " / ")
        }
        out += "selection minus the best fixed setting (\(best.candidate.summary)), in trials: "
            + lead { best.rows.indices.contains($0) ? best.rows[$0].accuracy : 0 } + "\n"
        out += "selection minus the best candidate at each length, in hindsight: "
            + lead { i in candidates.map { $0.rows.indices.contains(i) ? $0.rows[i].accuracy : 0 }.max() ?? 0 } + "\n"
        return out
    }

    static func text(_ r: EvaluationReport) -> String {
        var out = "\(r.trials) trials, \(r.classes) classes, \(r.channels) channels at \(f(r.sampleRate, 0)) Hz"
            + (r.recordedSampleRate > r.sampleRate * 1.01 ? " (decimated from \(f(r.recordedSampleRate, 0)) Hz)" : "")
            + "; \(r.folds) chronological folds\n"
        out += "length_s  accuracy  itr_bpm  predicted_err  actual_err\n"
        for line in r.rows {
            out += row([(length(line.seconds), 8), (f(line.accuracy), 8), (f(line.itr, 1), 7), (f(line.predictedError), 13)],
                       f(line.actualError))
        }
        let missing = OfflineEvaluation().lengths.filter { length in !r.rows.contains { $0.seconds == length } }
        out += "chance \(f(1 / Double(max(r.classes, 1)))) (1 in \(r.classes))"
            + (missing.isEmpty ? "" : "; no row at \(missing.map { f($0, 1) + " s" }.joined(separator: ", ")): longer than the trials") + "\n"
        out += "fit \(f(r.fitSeconds)) s per fold (calibrating certainty \(f(r.calibrationSeconds)) s); "
        out += "update \(f(r.updateMicroseconds, 1)) µs per \(r.classes)-class 100 ms step\n"
        if let mains = r.mainsFrequency { out += "mains found at \(f(mains, 0)) Hz: notched with its harmonics\n" }
        for (fold, choice) in r.choices.enumerated() { out += "fold \(fold + 1) chose \(choice.summary)\n" }
        out += "estimated latency \(f(r.latency * 1000, 1)) ms (folds: \(r.latencies.map { f($0 * 1000, 0) }.joined(separator: ", ")) ms): "
            + "the response's onset, where a 'latency estimated' window starts; a window from 0 ms holds it\n"
        out += "recommended certaintyRequiredForPress \(f(r.recommendedCertainty, 5)) for \(f(r.targetErrorRate * 100, 0)) % errors "
        out += "and \(f(r.idlePressBudget, r.idlePressBudget < 0.1 ? 3 : 1)) idle presses a minute; "
        if r.pressedFraction > 0 {
            out += "pressing there: \(f(r.pressedFraction * 100, 0)) % of trials pressed after \(f(r.meanPressSeconds, 2)) s on average, "
            out += "\(f(r.pressAccuracy * 100, 1)) % right\n"
        } else {
            out += "pressing there: no trial pressed\n"
        }
        if r.idleMinutes > 0 {
            out += "idle: \(r.idlePresses) false presses in \(f(r.idleMinutes, 1)) min of idle EEG "
            out += "(\(f(r.idlePressesPerMinute * 10, 2)) per 10 min; every fold's decoder listened to all of it)\n"
        }
        return out
    }
}

extension EventDefinition: ExpressibleByArgument {}

extension ChannelReference: ExpressibleByArgument {}

/// The zero-training replay's totals in `decoder evaluate --zero-train --json`.
struct ZeroTrainingSummary: Encodable {
    var zeroTrainTrials: Int
    var learnedLabels: [Int]
    var learnedLabelAccuracy: Double
    var revisions: Int
    var fitProblems: [String]
    var learnSeconds: Double
    var wrongPressesInFirstTen: Int
    var pressedRightFromEleven: Double
    var rightAtFourSecondsFromEleven: Double
}
