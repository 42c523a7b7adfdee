import ArgumentParser
import Foundation
import LabFormats

extension LabFormat: ExpressibleByArgument {}

/// How to read a recording's file: its format, when not detected from the
/// content, and which of an XDF file's streams hold the EEG and the
/// markers. Shared by `dataset import` and `decoder stream` (through
/// ``RecordingImportOptions``) and by `dataset inspect`.
struct RecordingFileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The format, when not detected from the content: \(LabFormat.allCases.map(\.rawValue).joined(separator: "|")).", valueName: "FORMAT"))
    var format: LabFormat?

    @Option(help: ArgumentHelp("XDF: the EEG stream's name, when there are several.", valueName: "NAME"))
    var stream: String?

    @Option(help: ArgumentHelp("XDF: the marker stream's name, when there are several.", valueName: "NAME"))
    var markers: String?

    /// True when any of the three was given.
    var anyGiven: Bool { format != nil || stream != nil || markers != nil }

    /// `--format`, else the format detected from `file`'s content; nil when
    /// it cannot be detected (the reader then says why, in one line).
    func kind(of file: String) -> LabFormat? { try? LabFormat.resolve(format, URL(fileURLWithPath: file)) }

    /// A usage error when `--stream` or `--markers` is given for a file that is not XDF.
    func check(_ kind: LabFormat) throws {
        if kind != .xdf, stream != nil || markers != nil { throw ValidationError("--stream and --markers apply to XDF recordings only") }
    }

    /// The warning when `--format` named EDF or BDF and the file's header is
    /// the other, which was read (one reader takes both; the header's first
    /// bytes tell 16-bit from 24-bit samples); nil otherwise.
    func formatWarning(read kind: LabFormat) -> String? {
        guard let format, format != kind else { return nil }
        return "--format \(format.rawValue): the file is \(kind.rawValue.uppercased()) by its header, read as such"
    }
}
