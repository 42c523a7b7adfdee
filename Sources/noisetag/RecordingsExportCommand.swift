import ArgumentParser
import Foundation
import LabFormats
import NoiseTagging

extension BDFWriter.Format: ExpressibleByArgument {}

/// `noisetag recordings export RECORDING --bids DIR --subject S`: writes a
/// recording (or a whole session folder) as BIDS-EEG that MNE-BIDS, EEGLAB
/// and MOABB read (Protocols/recordings-bids.md).
struct RecordingsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recording or a session folder as BIDS-EEG (BDF, events, channels, stimulus file).",
        discussion: """
        Needs the EEG the embedded decoder consumed (decoder-input.csv, written by noisetag demo). \
        The trials can be read back without codes: noisetag dataset import DIR/sub-S --out DATASET \
        --trial-start '^target=\\d+$' --label '^target=(\\d+)$'.
        """)

    @OptionGroup var recordings: RecordingsOption

    @Argument(help: "The recording: a folder name, a unique start of one, or a path; or a session folder (session.json, steps.jsonl and its recordings).")
    var recording: String

    @Option(help: ArgumentHelp("The BIDS dataset folder to write into (created if needed).", valueName: "DIR"))
    var bids: String

    @Option(help: ArgumentHelp("The subject label (letters and digits): sub-S.", valueName: "S"))
    var subject: String

    @Option(help: ArgumentHelp("The session label (letters and digits): ses-N.", valueName: "N"))
    var session: String?

    @Option(help: ArgumentHelp("The task label (letters and digits).", valueName: "T"))
    var task = "cvep"

    @Option(name: .customLong("run"), parsing: .unconditional, help: ArgumentHelp("The run index: run-R.", valueName: "R"))
    var runIndex: Int?

    @Option(help: ArgumentHelp("The data file: bdf (24-bit BioSemi) or edf (16-bit EDF+).", valueName: "FORMAT"))
    var format: BDFWriter.Format = .bdf

    func validate() throws {
        for (option, label) in [("--subject", subject), ("--session", session), ("--task", task)] {
            if let label, !BIDSExporter.isLabel(label) {
                throw ValidationError("\(option): \"\(label)\" is not a BIDS label (letters and digits only)")
            }
        }
        if let runIndex, runIndex < 1 { throw ValidationError("--run: must be a positive index, got \(runIndex)") }
    }

    func run() throws {
        let folder = try resolve()
        // A run still writing it would leave an export of its first part, which then blocks the whole one (the folder exists).
        if RecordingStore.isLive(folder) {
            throw CommandFailure("\(folder.path): still being recorded (a session run or an app holds it); export it once that run has ended")
        }
        let root = URL(fileURLWithPath: (bids as NSString).expandingTildeInPath, isDirectory: true)
        let report: BIDSExporter.Report
        let source: EngineRecording
        do {
            source = try EngineRecording.read(folder)
            report = try BIDSExporter.export(source, to: root, options: .init(subject: subject, session: session, task: task,
                                                                             run: runIndex, format: format))
        } catch {
            throw CommandFailure("\(error)")
        }
        let step = report.scales.map(\.step).max() ?? 0
        print("exported \(source.name)" + (source.isSession ? " (a session of \(source.folders.count) recordings)" : "") + " to \(root.path)")
        print(String(format: "EEG: %d channels at %@ Hz, %.3f s (%d samples), %@, quantisation step %.3g µV",
                     report.channels.count, String(report.sampleRate), report.seconds, report.samples,
                     format == .bdf ? "BDF 24-bit" : "EDF+ 16-bit", step))
        var kinds: [String: Int] = [:]
        for (type, count) in report.events { kinds[type.hasPrefix("target=") ? "target=K" : type, default: 0] += count }
        print("events: " + kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        for file in report.files { print("wrote \(file.path)") }
        for warning in report.warnings { print("warning: \(warning)") }
        let subjectFolder = root.appendingPathComponent("sub-\(subject)").path + (session.map { "/ses-\($0)" } ?? "")
        print("read the cued trials back: noisetag dataset import '\(subjectFolder)' --out DATASET --trial-start '^target=\\d+$' --label '^target=(\\d+)$'")
    }

    /// The folder RECORDING names: a session folder (a path, else one in
    /// the store), else a recording as `recordings show` takes it (a folder
    /// whose name is not a recording's is refused there and here alike).
    private func resolve() throws -> URL {
        let path = (recording as NSString).expandingTildeInPath
        if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("session.json")) {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        if let session = recordings.sessionFolder(named: recording) { return session }
        return try recordings.recording(named: recording).url
    }
}
