import ArgumentParser
import Decoding
import Foundation
import LabFormats

extension EpochsImporter.Units: ExpressibleByArgument {}

/// The options that say how to read a lab recording (format, streams,
/// markers, codes), shared by `noisetag dataset import` and `noisetag
/// decoder stream`, and the one path that turns a recording into a
/// ``TrialsDataset`` with its continuous context.
///
/// ```swift
/// @OptionGroup var source: RecordingImportOptions
/// func validate() throws { try source.check(file: file) }
/// let (dataset, warnings, format) = try source.importRecording(file)
/// ```
struct RecordingImportOptions: ParsableArguments {
    @OptionGroup var recordingFile: RecordingFileOptions

    @Option(help: ArgumentHelp("Regular expression matching the marker that starts each trial.", valueName: "REGEX"))
    var trialStart: String?

    @Option(help: ArgumentHelp("Regular expression whose first group is the class, on the latest marker at or before the trial start.", valueName: "REGEX"))
    var label: String?

    @Flag(help: "Take each trial's label from the first --label marker at or after its start (before the next start), for programs that send the class just after the flicker starts.")
    var labelAfter = false

    @Option(help: ArgumentHelp("The codes, classes × bits: .npz, .npy, MAT-file (its codes variable) or MindAffect codebook text.", valueName: "FILE"))
    var codes: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Code bits per second.", valueName: "HZ"))
    var codeRate: Double = 60

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep the first N codes as the classes.", valueName: "N"))
    var classes: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Trial length (default: the shortest trial by --trial-end, else the shortest gap between trial starts).", valueName: "S"))
    var trialSeconds: Double?

    @Option(help: ArgumentHelp("A regular expression a marker matches when it ends a trial: the trials are as long as the shortest start-to-end.", valueName: "REGEX"))
    var trialEnd: String?

    @Option(help: ArgumentHelp(".npz or MAT-file epochs: the unit of X, auto (volts when its RMS is under 0.01, else µV), volts or microvolts.", valueName: "UNIT"))
    var units: EpochsImporter.Units?

    @Option(help: ArgumentHelp("Keep only these channels, in this order (names as dataset inspect lists them, comma-separated).", valueName: "NAMES"))
    var channels: String?

    @Option(help: ArgumentHelp("Leave these channels out (comma-separated names), e.g. EOG or a non-EEG sensor.", valueName: "NAMES"))
    var dropChannels: String?

    /// True when any option beyond the defaults was given (they apply to lab recordings only).
    var anyGiven: Bool {
        recordingFile.anyGiven || trialStart != nil || label != nil || labelAfter || codes != nil || classes != nil || trialSeconds != nil
            || trialEnd != nil || codeRate != 60 || units != nil || channels != nil || dropChannels != nil
    }

    /// The channels `--channels` or `--drop-channels` select; nil when neither is given.
    var channelSelection: ChannelSelection? {
        func names(_ list: String) -> [String] { list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        if let channels { return .keep(names(channels)) }
        return dropChannels.map { .drop(names($0)) }
    }

    /// Checks the options against each other and against `file`'s format
    /// (usage errors, exit 64); a file that cannot be detected is left for
    /// ``importRecording(_:)`` to report.
    func check(file: String) throws {
        if channels != nil, dropChannels != nil { throw ValidationError("--channels and --drop-channels: give one or the other") }
        for (option, list) in [("--channels", channels), ("--drop-channels", dropChannels)] {
            if let list, list.split(separator: ",", omittingEmptySubsequences: false).contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                throw ValidationError("\(option) \"\(list)\": an empty name (give names separated by commas)")
            }
        }
        guard codeRate > 0, codeRate.isFinite else { throw ValidationError("--code-rate: must be a finite number above 0, got \(codeRate)") }
        if let classes, classes < 2 { throw ValidationError("--classes: must be at least 2, got \(classes)") }
        if let trialSeconds, !(trialSeconds > 0 && trialSeconds.isFinite) { throw ValidationError("--trial-seconds: must be a finite number above 0, got \(trialSeconds)") }
        if trialSeconds != nil, trialEnd != nil { throw ValidationError("--trial-seconds and --trial-end both set the trial length: give one or the other") }
        for (option, pattern) in [("--trial-start", trialStart), ("--label", label), ("--trial-end", trialEnd)] {
            if let pattern, (try? Regex(pattern)) == nil { throw ValidationError("\(option): not a regular expression: \(pattern)") }
        }
        guard let kind = recordingFile.kind(of: file) else { return }  // importRecording reports why
        try recordingFile.check(kind)
        if !kind.holdsEpochs, units != nil { throw ValidationError("--units applies to .npz and MAT-file epochs only") }
        if kind.holdsEpochs, trialStart != nil || label != nil || labelAfter || trialSeconds != nil || trialEnd != nil {
            throw ValidationError("\(kind == .mat ? "a MAT-file" : "a .npz") of epochs carries its own trials: --trial-start, --label, --label-after, --trial-seconds and --trial-end do not apply")
        }
        if kind.holdsEpochs, codes == nil, codeRate != 60 {
            throw ValidationError("--code-rate applies with --codes only (the epochs' V is at their sample rate)")
        }
        if kind == .savefile, trialStart != nil || label != nil || labelAfter || codes != nil || classes != nil || trialSeconds != nil || trialEnd != nil || codeRate != 60 {
            throw ValidationError("a \(kind.rawValue) carries its own trials and codes: --trial-start, --label, --label-after, --codes, --code-rate, --classes, --trial-seconds and --trial-end do not apply")
        }
        // A BIDS recording with a stimulus file (noisetag recordings export) needs no codes.
        let stimulusFile = kind == .bids && codes == nil ? (try? BIDSImporter.stimulusFile(URL(fileURLWithPath: file))) ?? nil : nil
        if stimulusFile != nil, codeRate != 60 || classes != nil {
            throw ValidationError("--code-rate and --classes apply with --codes only (the stimulus file gives each class's states)")
        }
        if kind.cutsByMarkers {
            let missing = [("--trial-start", trialStart), ("--label", label), ("--codes", stimulusFile == nil ? codes : "")].filter { $0.1 == nil }.map(\.0)
            if !missing.isEmpty {
                // ArgumentParser names unknown options only after this check: a misspelt one would pass for a missing one.
                if let (typed, meant) = Self.misspelling(of: missing, in: CommandLine.arguments) {
                    throw ValidationError("Unknown option '\(typed)'. Did you mean '\(meant)'?")
                }
                throw ValidationError("\(kind.rawValue) recordings are cut by markers: \(missing.joined(separator: ", ")) needed (noisetag dataset inspect \(file) lists the markers)")
            }
        }
    }

    /// An argument of `arguments` that looks like a misspelling of one of the
    /// `options` (at most two letters off), and the option it looks like.
    static func misspelling(of options: [String], in arguments: [String]) -> (String, String)? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var next = [i + 1]
                for (j, y) in b.enumerated() { next.append(min(row[j + 1] + 1, next[j] + 1, row[j] + (x == y ? 0 : 1))) }
                row = next
            }
            return row[b.count]
        }
        for argument in arguments where argument.hasPrefix("--") {
            let typed = String(argument.prefix { $0 != "=" })
            if let meant = options.first(where: { $0 != typed && distance(Array(typed), Array($0)) <= 2 }) { return (typed, meant) }
        }
        return nil
    }

    /// Reads `file` as a trials dataset with its continuous context, the
    /// importer's warnings (what was noticed and survived) and the format
    /// read. Every failure is a ``CommandFailure`` of one line.
    func importRecording(_ file: String) throws -> (TrialsDataset, [String], LabFormat) {
        let url = URL(fileURLWithPath: file)
        do {
            let kind = try LabFormat.resolve(recordingFile.format, url)
            var (dataset, warnings, leftOut) = try read(kind, url)
            if let warning = recordingFile.formatWarning(read: kind) { warnings.insert(warning, at: 0) }
            if let selection = channelSelection {
                do { dataset = try dataset.selectingChannels(selection, leftOut: leftOut) } catch let error as ChannelSelectionError {
                    throw CommandFailure("\(channels != nil ? "--channels" : "--drop-channels"): \(error)")
                }
            }
            return (dataset, warnings, kind)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// The dataset, its warnings, and the file's channels the importer did
    /// not read (with why) beyond the dataset's dead ones.
    private func read(_ kind: LabFormat, _ url: URL) throws -> (TrialsDataset, [String], [String: String]) {
        switch kind {
        case .savefile:
            let (dataset, warnings) = try SavefileImporter.readWithWarnings(url)
            return (dataset, warnings, [:])
        case .npz, .mat:
            let codes = try self.codes.map { try CodesFile.read(URL(fileURLWithPath: $0)) }
            let (dataset, warnings) = try EpochsImporter.read(url, units: units ?? .auto, codes: codes, codeRate: codeRate, classes: classes)
            return (dataset, warnings, [:])
        case .xdf, .bdf, .edf, .brainvision, .bids: break
        }
        let recording = try ContinuousRecording.read(url, format: kind, stream: recordingFile.stream, markers: recordingFile.markers)
            .keepingEEG(selection: channelSelection)
        if kind == .bids, codes == nil, let trialStart, let label, let stimulus = try BIDSImporter.stimulus(url) {
            var options = TrialCutOptions(trialStart: trialStart, label: label, codes: [], trialSeconds: trialSeconds)
            options.trialEnd = trialEnd
            options.labelAfterStart = labelAfter
            let (dataset, warnings) = try StimulusTrialCutter.cut(recording, stimulus: stimulus, options: options)
            return (dataset, warnings, recording.otherRateChannels)
        }
        guard let trialStart, let label, let codes else {
            throw CommandFailure("\(kind.rawValue) recordings are cut by markers: --trial-start, --label and --codes are needed")
        }
        var options = TrialCutOptions(trialStart: trialStart, label: label, codes: try CodesFile.read(URL(fileURLWithPath: codes)),
                                      codeRate: codeRate, classes: classes, trialSeconds: trialSeconds)
        options.trialEnd = trialEnd
        options.labelAfterStart = labelAfter
        let (dataset, warnings) = try MarkerTrialCutter.cut(recording, options: options)
        return (dataset, warnings, recording.otherRateChannels)
    }
}
