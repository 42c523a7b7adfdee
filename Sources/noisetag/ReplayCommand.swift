import ArgumentParser
import DecoderService
import Foundation
import IOThreads
import NoiseTagging
import Replay

/// `noisetag replay RECORDING`: runs a recording's trials again on a
/// virtual clock and compares them with the log, or asks what other
/// settings (or a re-decode) would have done.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording's trials deterministically and compare with the log; ask what other settings would have done.",
        discussion: """
            Exit status: 0 when every trial replayed identically (a what-if or a sweep: when every trial could be replayed), \
            1 otherwise, 2 when the recording cannot be read (the message names the file and line), 64 for a usage error.
            """)

    @OptionGroup var recordings: RecordingsOption

    @Argument(help: "The recording: its folder name, a unique start of it, or a path to the folder.")
    var recording: String

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Replay trials up to and including this trial number.", valueName: "N"))
    var untilTrial: Int?

    @Option(name: .customLong("set"), help: ArgumentHelp("What if this setting had this value (repeatable, once per setting; wins over --with-settings).", valueName: "TITLE=VALUE"))
    var sets: [String] = []

    @Option(help: ArgumentHelp("What if these settings (a JSON object by title, like settings.json).", valueName: "FILE"))
    var withSettings: String?

    @Option(name: .customLong("sweep"), help: ArgumentHelp("Replay under each value of a number setting and print the trade-off (one sweep at a time).", valueName: "TITLE=FROM:TO:STEP"))
    var sweeps: [String] = []

    /// The one `--sweep` given, if any.
    var sweep: String? { sweeps.last }

    @Option(help: ArgumentHelp("With --sweep: also write the trade-off curve as SVG.", valueName: "FILE"))
    var plot: String?

    @Flag(help: "Re-run the reference decoder on the recorded EEG (decoder-input.csv) in place of the logged predictions.")
    var redecode = false

    @Option(help: ArgumentHelp("With --redecode: the decoder's settings (JSON, as noisetag decoder takes them).", valueName: "FILE"))
    var decoderSettings: String?

    func validate() throws {
        if let untilTrial, untilTrial < 1 { throw ValidationError("--until-trial \(untilTrial): must be 1 or more") }
        if plot != nil, sweep == nil { throw ValidationError("--plot needs --sweep") }
        if sweeps.count > 1 { throw ValidationError("--sweep given \(sweeps.count) times: one sweep at a time") }
        if let plot, !plot.lowercased().hasSuffix(".svg") { throw ValidationError("--plot \(plot): the plot is an SVG image: give a name ending in .svg") }
        if decoderSettings != nil, !redecode { throw ValidationError("--decoder-settings needs --redecode") }
        // Checked here, not in run(), so that the usage line is this command's.
        do throws(ReplayOptionError) {
            _ = try SettingOverrides(file: withSettings, sets: sets)
            if let swept = try sweep.map(ParameterSweep.init(parsing:)), sets.contains(where: { $0.hasPrefix(swept.title.rawValue + "=") }) {
                throw ReplayOptionError("--set \(swept.title.rawValue) and --sweep \(swept.title.rawValue): the sweep sets it; give one or the other")
            }
        } catch {
            throw ValidationError(error.description)
        }
        // A bad settings file is a usage error (64), not the divergence that exit status 1 means.
        if let decoderSettings {
            do { _ = try DecoderServerSettings.load(decoderSettings, for: "--decoder-settings") } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        let overrides: [NoiseTagSettingTitles: NoiseTagSettingValue]
        let overrideNotes: [String]
        let parameterSweep: ParameterSweep?
        var decoderServerSettings = DecoderServerSettings()
        do {
            let given = try SettingOverrides(file: withSettings, sets: sets)
            (overrides, overrideNotes) = (given.values, given.notes)
            parameterSweep = try sweep.map(ParameterSweep.init(parsing:))
        } catch {
            throw ValidationError(error.description)
        }
        if let decoderSettings { decoderServerSettings = try DecoderServerSettings.load(decoderSettings, for: "--decoder-settings") }
        let folder = try resolveFolder()
        let script: RecordingScript
        do {
            script = try RecordingScript(folder: folder)
        } catch {
            FileHandle.standardError.writeIfOpen(Data("noisetag replay: \(shown(folder))/\(error.description)\n".utf8))
            throw ExitCode(2)
        }
        var replay = RecordingReplay(script: script)
        replay.overrides = overrides
        replay.untilTrial = untilTrial
        var redecodeNotes: [String] = []
        if redecode {
            do {
                let redecoded = try RedecodedPredictions(script: script, settings: decoderServerSettings)
                replay.incoming = redecoded.incoming
                redecodeNotes = redecoded.notes
            } catch {
                FileHandle.standardError.writeIfOpen(Data("noisetag replay: \(shown(folder))/\(error.description)\n".utf8))
                throw ExitCode(2)
            }
        }
        var report = replay.run()
        report.notes += overrideNotes + redecodeNotes
        if let parameterSweep, SettingOverrides.betweenTrials.contains(parameterSweep.title) {
            report.notes.append(SettingOverrides.betweenTrialsNote(parameterSweep.title))
        }
        if let problem = Self.nothingToReplay(script) {
            FileHandle.standardError.writeIfOpen(Data("noisetag replay: \(shown(folder)): \(problem)\n".utf8))
            throw ExitCode(2)
        }
        if let parameterSweep {
            let points = parameterSweep.run(script, overrides: overrides, untilTrial: untilTrial, incoming: replay.incoming)
            print(json ? Self.sweepJSON(parameterSweep, points, report) : Self.sweepText(parameterSweep, points, report))
            if let plot {
                let svg = SweepPlot(sweep: parameterSweep, points: points, logged: report.loggedTotals, redecoded: report.isRedecode).svg
                do { try Data(svg.utf8).write(to: URL(fileURLWithPath: plot)) } catch {
                    throw CommandFailure("--plot \(plot): cannot write: \(error.localizedDescription)")
                }
                (json ? FileHandle.standardError : FileHandle.standardOutput).writeIfOpen(Data("wrote \(plot)\n".utf8))
            }
            if report.unreplayable > 0 { throw ExitCode(1) }  // as for one what-if: not every trial could be replayed
            return
        }
        print(json ? report.json() : report.text())
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    /// Why a recording cannot be replayed at all: its trials lack the state replay needs.
    static func nothingToReplay(_ script: RecordingScript) -> String? {
        if let first = script.starts.first, first.value.state == nil {
            return "events.jsonl:\(first.line): trial \(first.value.trial) has no logged engine state "
                + "(recording format \(script.format): recorded by an engine before replay support)"
        }
        return nil
    }

    /// The recording as the user named it: the path given, or the folder's name.
    private func shown(_ folder: URL) -> String {
        recording.contains("/") ? String(recording.reversed().drop { $0 == "/" }.reversed()) : folder.lastPathComponent
    }

    private func resolveFolder() throws -> URL {
        var isFolder: ObjCBool = false
        let path = (recording as NSString).expandingTildeInPath
        if let problem = RecordingsOption.sessionFolderProblem(recording) {
            FileHandle.standardError.writeIfOpen(Data("noisetag replay: \(problem)\n".utf8))
            throw ExitCode(2)
        }
        if recording.contains("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            // A recording copied under another name replays; a folder holding none of its files is no recording.
            let files = [RecordingFile.events, .settings, .frames].map(\.rawValue)
            guard files.contains(where: { FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent($0)) }) else {
                FileHandle.standardError.writeIfOpen(Data("noisetag replay: \(recording): not a recording: it holds none of \(files.joined(separator: ", ")) (Protocols/recordings.md)\n".utf8))
                throw ExitCode(2)
            }
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        do { return try recordings.recording(named: recording).url } catch let failure as CommandFailure {
            // A recording that cannot be found is one that cannot be read: exit 2, as the help says.
            FileHandle.standardError.writeIfOpen(Data("noisetag replay: \(failure)\n".utf8))
            throw ExitCode(2)
        }
    }

    static func sweepText(_ sweep: ParameterSweep, _ points: [ParameterSweep.Point], _ report: ReplayReport) -> String {
        func n(_ v: Double?, _ format: String) -> String { v.map { String(format: format, $0) } ?? "-" }
        func row(_ cells: [String]) -> String {
            zip(cells, [12, 10, 12, 10, 12, 10, 9]).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined()
        }
        let replayed = report.trials.count - report.unreplayable
        var lines = ["recording: \(report.recording)" + (report.isRedecode ? " (re-decoded)" : ""),
                     "sweep: \(sweep.title.rawValue), \(points.count) value\(points.count == 1 ? "" : "s"), \(replayed) trial\(replayed == 1 ? "" : "s") each"
                        + (report.unreplayable > 0 ? " (\(report.unreplayable) not replayable, left out of every row: replay without --sweep says why)" : ""),
                     row([sweep.title.rawValue.count > 11 ? "value" : sweep.title.rawValue, "presses", "correct", "accuracy", "mean time", "ITR", "changed"])]
        let logged = report.loggedTotals
        lines.append(row(["logged", "\(logged.presses)", "\(logged.correctPresses)/\(logged.pressesWithKnownTarget)",
                          n(logged.accuracy.map { $0 * 100 }, "%.1f%%"), n(logged.meanSelectionTime, "%.3f s"),
                          n(logged.bitsPerMinute, "%.1f"), "-"]))
        for p in points {
            let t = p.totals
            lines.append(row([String(format: "%g", p.value), "\(t.presses)", "\(t.correctPresses)/\(t.pressesWithKnownTarget)",
                              n(t.accuracy.map { $0 * 100 }, "%.1f%%"), n(t.meanSelectionTime, "%.3f s"), n(t.bitsPerMinute, "%.1f"), "\(p.changed)"]))
        }
        lines.append("(ITR in bits/min; accuracy over presses whose target the engine knew)")
        lines += report.notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }

    static func sweepJSON(_ sweep: ParameterSweep, _ points: [ParameterSweep.Point], _ report: ReplayReport) -> String {
        struct Row: Encodable {
            var value: Double?, presses: Int, presses_with_known_target: Int, correct_presses: Int
            var accuracy: Double?, mean_selection_time: Double?, bits_per_minute: Double?, changed: Int?
        }
        struct Sweep: Encodable {
            var recording: String, redecoded: Bool, setting: String, trials: Int, not_replayable: Int, logged: Row, points: [Row], notes: [String]
        }
        func row(_ value: Double?, _ t: OutcomeTotals, _ changed: Int?) -> Row {
            Row(value: value, presses: t.presses, presses_with_known_target: t.pressesWithKnownTarget, correct_presses: t.correctPresses,
                accuracy: t.accuracy, mean_selection_time: t.meanSelectionTime, bits_per_minute: t.bitsPerMinute, changed: changed)
        }
        let object = Sweep(recording: report.recording, redecoded: report.isRedecode, setting: sweep.title.rawValue,
                           trials: report.trials.count - report.unreplayable, not_replayable: report.unreplayable,
                           logged: row(nil, report.loggedTotals, nil), points: points.map { row($0.value, $0.totals, $0.changed) },
                           notes: report.notes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
