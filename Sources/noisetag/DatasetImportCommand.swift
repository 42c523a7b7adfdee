import ArgumentParser
import Decoding
import Foundation
import LabFormats

extension LabFormat: ExpressibleByArgument {}

/// `noisetag dataset import`: reads a lab recording (MindAffect savefile,
/// XDF, BDF, EDF, BrainVision, BIDS) and writes a trials dataset with its
/// continuous context (Protocols/dataset.md, "Importing recordings").
///
/// ```swift
/// NoisetagCommand.main(["dataset", "import", "mindaffectBCI_exampledata.txt", "--out", "ma"])
/// ```
struct DatasetImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a recording as a trials dataset (X, y, V and the continuous EEG).")

    @Argument(help: ArgumentHelp("The recording: a file, or a BIDS folder.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("Folder to write (created if needed).", valueName: "DIR"))
    var out: String

    @Option(help: ArgumentHelp("The format, when not detected from the content: \(LabFormat.allCases.map(\.rawValue).joined(separator: "|")).", valueName: "FORMAT"))
    var format: LabFormat?

    @Option(help: ArgumentHelp("XDF: the EEG stream's name, when there are several.", valueName: "NAME"))
    var stream: String?

    @Option(help: ArgumentHelp("XDF: the marker stream's name, when there are several.", valueName: "NAME"))
    var markers: String?

    @Option(help: ArgumentHelp("Regular expression matching the marker that starts each trial.", valueName: "REGEX"))
    var trialStart: String?

    @Option(help: ArgumentHelp("Regular expression whose first group is the class, on the latest marker at or before the trial start.", valueName: "REGEX"))
    var label: String?

    @Option(help: ArgumentHelp("The codes: .npz, .npy or MindAffect codebook text (classes × bits).", valueName: "FILE"))
    var codes: String?

    @Option(help: ArgumentHelp("Code bits per second.", valueName: "HZ"))
    var codeRate: Double = 60

    @Option(help: ArgumentHelp("Keep the first N codes as the classes.", valueName: "N"))
    var classes: Int?

    @Option(help: ArgumentHelp("Trial length (default: the shortest trial by --trial-end, else the shortest gap between trial starts).", valueName: "S"))
    var trialSeconds: Double?

    @Option(help: ArgumentHelp("A regular expression a marker matches when it ends a trial: the trials are as long as the shortest start-to-end.", valueName: "REGEX"))
    var trialEnd: String?

    func validate() throws {
        guard codeRate > 0, codeRate.isFinite else { throw ValidationError("--code-rate: must be positive, got \(codeRate)") }
        if let classes, classes < 2 { throw ValidationError("--classes: must be at least 2, got \(classes)") }
        if let trialSeconds, !(trialSeconds > 0 && trialSeconds.isFinite) { throw ValidationError("--trial-seconds: must be positive, got \(trialSeconds)") }
        guard let kind = format ?? (try? LabFormat.detect(URL(fileURLWithPath: file))) else { return }  // run() reports why
        if kind != .xdf, stream != nil || markers != nil { throw ValidationError("--stream and --markers apply to XDF recordings only") }
        if !kind.cutsByMarkers, trialStart != nil || label != nil || codes != nil || classes != nil || trialSeconds != nil || trialEnd != nil {
            throw ValidationError("a \(kind.rawValue) carries its own trials and codes: --trial-start, --label, --codes, --classes, --trial-seconds and --trial-end do not apply")
        }
        if kind.cutsByMarkers {
            let missing = [("--trial-start", trialStart), ("--label", label), ("--codes", codes)].filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty {
                throw ValidationError("\(kind.rawValue) recordings are cut by markers: \(missing.joined(separator: ", ")) needed")
            }
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        do {
            let kind = try format ?? LabFormat.detect(url)
            let (dataset, warnings) = try importDataset(kind, url)
            try dataset.write(to: URL(fileURLWithPath: out))
            let h = dataset.header
            print("imported \(file) (\(kind.rawValue)): \(h.nTrials) trials, \(h.nClasses) classes, \(h.nChannels) channels at \(String(format: "%.3f", h.fs)) Hz, \(String(format: "%.3f", Double(h.nSamples) / h.fs)) s (\(h.nSamples) samples) per trial")
            print("labels: " + dataset.labels.map(String.init).joined(separator: " "))
            if let source = h.source { print("source: \(source)") }
            for warning in warnings { print("warning: \(warning)") }
            print("wrote \(out)")
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    private func importDataset(_ kind: LabFormat, _ url: URL) throws -> (TrialsDataset, [String]) {
        let recording: ContinuousRecording
        switch kind {
        case .savefile: return try SavefileImporter.readWithWarnings(url)
        case .xdf: recording = try XDFImporter.read(url, stream: stream, markers: markers)
        case .bdf, .edf: recording = try EDFImporter.read(url)
        case .brainvision: recording = try BrainVisionImporter.read(url)
        case .bids: recording = try BIDSImporter.read(url)
        }
        guard let trialStart, let label, let codes else {
            throw CommandFailure("\(kind.rawValue) recordings are cut by markers: --trial-start, --label and --codes are needed")
        }
        var options = TrialCutOptions(trialStart: trialStart, label: label, codes: try CodesFile.read(URL(fileURLWithPath: codes)),
                                      codeRate: codeRate, classes: classes, trialSeconds: trialSeconds)
        options.trialEnd = trialEnd
        return (try MarkerTrialCutter.cut(recording, options: options), recording.warnings)
    }
}
