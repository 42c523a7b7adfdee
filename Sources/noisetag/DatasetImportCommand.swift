import ArgumentParser
import Decoding
import Foundation
import LabFormats

/// `noisetag dataset import`: reads a lab recording (MindAffect savefile,
/// XDF, BDF, EDF, BrainVision, BIDS) and writes a trials dataset with its
/// continuous context, or trials cut upstream (`.npz` or MAT-file epochs) as
/// they are (Protocols/dataset-import.md).
struct DatasetImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a recording as a trials dataset (X, y, V and the continuous EEG).")

    @Argument(help: ArgumentHelp("The recording: a file, or a BIDS folder.", valueName: "FILE"))
    var file: String

    @OptionGroup var destination: DatasetFolderOption

    @OptionGroup var source: RecordingImportOptions

    func validate() throws { try source.check(file: file) }

    func run() throws {
        // A dataset folder is replaced (re-importing with other options is routine); any other folder with files in it is not ours.
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: destination.url.path)) ?? []
        let replacing = existing.contains("header.json")
        if !existing.isEmpty, !replacing {
            throw CommandFailure("--out \(destination.out): a folder holding other files and no dataset; give a new or empty folder")
        }
        let (dataset, warnings, kind) = try source.importRecording(file)
        do { try dataset.write(to: destination.url) } catch { throw CommandFailure("\(error)") }
        let h = dataset.header
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        print("imported \(file) (\(kind.rawValue)): \(count(h.nTrials, "trial", "trials")), \(count(h.nClasses, "class", "classes")), \(count(h.nChannels, "channel", "channels")) at \(RateText.format(h.fs)) Hz, \(String(format: "%.3f", Double(h.nSamples) / h.fs)) s (\(h.nSamples) samples) per trial")
        if source.channelSelection != nil { print("channels: " + dataset.channelNames.joined(separator: ", ")) }
        print("labels: " + dataset.labels.map(String.init).joined(separator: " "))
        if let source = h.source { print("source: \(source)") }
        for warning in warnings { print("warning: \(warning)") }
        print((replacing ? "replaced the dataset in " : "wrote ") + destination.out)
    }
}
