import ArgumentParser
import DecoderService
import Decoding
import Foundation
import IOThreads
import UtopiaProtocol
import ZeroMQTransport

/// `noisetag decoder stream FILE`: plays a recording into a running decoder
/// as an acquisition client and an engine would (calibration on the first
/// trials, prediction on the rest) and reports the presses.
struct DecoderStreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Play a recording into a running decoder: calibrate on its first trials, predict the rest, report the presses.",
        discussion: """
        FILE is a trials dataset folder (Protocols/dataset.md) or any recording `noisetag dataset \
        import` reads (with the same options). Connects to the decoder at --endpoint (default: the \
        per-user ipc:// socket `noisetag decoder` binds), sends RESET, a DATAHEADER and DATAPACKETs \
        of 40 ms at the recording's pace (or --speed times faster), and, as the engine would, \
        MODECHANGE Calibration.supervised with a NEWTARGET and 60 Hz STIMULUSEVENTs (objects 1…n \
        the classes' codes from V, object 0 the cued target) for the first --calibration-trials \
        trials, then Prediction.static; once the decoder's fit sent its certainty threshold, the \
        other trials without object 0. A press is a trial's first prediction whose certainty \
        (1 − Perr) reaches the threshold (or --certainty). A continuous recording is streamed from \
        3 s before its first trial; cut trials are streamed back to back with 1 s of mirrored \
        signal between them. Predictions come every --prediction-interval of the decoder's clock, \
        so at --speed X up to 10 run the decoder with --prediction-interval 0.1/X to keep their \
        resolution (its shortest, 0.01 s, keeps it up to --speed 10; faster, presses come later \
        in recording time). \
        Faster than real time, the stamps start in the past so that none is ahead of the clock at \
        the end (the decoder ignores a STIMULUSEVENT older than one it saw): the stream's RESET \
        restarts the decoder's stimulus clock, so streams follow one another freely, but two at once \
        into one decoder cannot. SIGINT, SIGTERM or SIGHUP stops the stream with a RESET, so the \
        decoder forgets its calibration trials (exit 130).
        """)

    @Argument(help: ArgumentHelp("A trials dataset folder, or a recording (a file, or a BIDS folder).", valueName: "FILE"))
    var file: String

    @Option(parsing: .unconditional, help: ArgumentHelp("How many times faster than recorded to stream (at least 1).", valueName: "X"))
    var speed = 1.0

    @Option(help: "The decoder's ZeroMQ endpoint (default: the per-user ipc:// socket).")
    var endpoint: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Trials to calibrate on, the first in time (default: half, at least 2, at most all but one).", valueName: "K"))
    var calibrationTrials: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Certainty (1 − Perr) a press needs (default: the decoder's recommended threshold).", valueName: "C"))
    var certainty: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds the stream waits for the decoder's fit when the first prediction trial is due (the fit runs from the end of calibration; the recording's timeline pauses while it waits).", valueName: "S"))
    var fitTimeout = 120.0

    @Flag(help: "Print the report as JSON.")
    var json = false

    @OptionGroup var source: RecordingImportOptions

    func validate() throws {
        guard speed.isFinite, speed >= 1 else { throw ValidationError("--speed \(speed): must be at least 1") }
        if let calibrationTrials, calibrationTrials < 2 { throw ValidationError("--calibration-trials \(calibrationTrials): the decoder fits on at least 2") }
        if let certainty, !(certainty > 0 && certainty < 1) { throw ValidationError("--certainty \(certainty): must be above 0 and below 1") }
        guard fitTimeout.isFinite, fitTimeout > 0 else { throw ValidationError("--fit-timeout \(fitTimeout): must be a finite number above 0") }
        if let endpoint {
            if endpoint.trimmingCharacters(in: .whitespaces).hasPrefix("utopia://") {
                throw ValidationError("--endpoint \(endpoint): stream connects to a ZeroMQ decoder (ipc://, tcp://), not a Utopia hub")
            }
            try EndpointOption.check(endpoint, option: "--endpoint")
        }
        if isTrialsDataset {
            if source.anyGiven { throw ValidationError("\(file) is a trials dataset: the import options apply to recordings only") }
        } else {
            try source.check(file: file)
        }
    }

    /// True when FILE is a trials dataset folder (it holds header.json), not a recording.
    private var isTrialsDataset: Bool {
        FileManager.default.fileExists(atPath: URL(fileURLWithPath: file).appendingPathComponent("header.json").path)
    }

    func run() throws {
        let resolved: String
        do { resolved = try DecoderEndpoint.resolve(endpoint ?? "") } catch { throw CommandFailure("\(error)") }
        let dataset: TrialsDataset
        var warnings: [String] = []
        if isTrialsDataset {
            dataset = try TrialsDataset.read(folder: file)
        } else {
            (dataset, warnings, _) = try source.importRecording(file)
        }
        let h = dataset.header
        if let calibrationTrials, calibrationTrials >= h.nTrials {
            throw CommandFailure("--calibration-trials \(calibrationTrials): \(file) has \(h.nTrials) trials; at most \(h.nTrials - 1) calibrate so that one is predicted")
        }
        var settings = PlaybackSettings()
        settings.speed = speed
        settings.calibrationTrials = calibrationTrials
        settings.certainty = certainty
        settings.fitTimeout = fitTimeout
        var playback: RecordingPlayback
        do { playback = try RecordingPlayback(dataset: dataset, settings: settings) } catch { throw CommandFailure("\(file): \(error)") }
        let output = FileHandle.standardOutput
        func say(_ line: String) { if !json { output.writeIfOpen(Data((line + "\n").utf8)) } }
        say("streaming \(file) to \(resolved) at \(speed == 1 ? "its own pace" : "\(String(format: "%g", speed)) × its pace"): "
            + "\(h.nTrials) trials of \(String(format: "%.2f", Double(h.nSamples) / h.fs)) s, \(h.nClasses) classes, "
            + "\(h.nChannels) channels at \(RateText.format(h.fs)) Hz"
            + (dataset.context == nil ? "; cut trials with 1 s rests" : "; continuous"))
        for warning in warnings { say("warning: \(warning)") }
        say("calibration on trials " + playback.report.calibrationTrials.map(String.init).joined(separator: " "))
        let report: PlaybackReport
        StopSignal.install()
        do {
            report = try RecordingPlayer.run(&playback, endpoint: resolved, progress: json ? nil : say, stopRequested: { StopSignal.requested })
        } catch .interrupted {
            FileHandle.standardError.writeIfOpen(Data("noisetag decoder stream: \(PlaybackError.interrupted)\n".utf8))
            throw ExitCode(130)
        } catch { throw CommandFailure("\(error)") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do { output.write(try encoder.encode(report) + Data("\n".utf8)) } catch { throw CommandFailure("cannot encode the report: \(error)") }
            return
        }
        if let threshold = report.certainty {
            say("pressed at certainty \(String(format: "%.6f", threshold)) (\(report.certaintySource == "decoder" ? "the decoder's recommendation" : "--certainty"))")
        }
        say(report.summary)
    }
}
