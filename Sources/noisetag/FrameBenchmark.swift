import ZeroMQTransport
import DecoderBridge
import Foundation
import Histogram
import NoiseTagging
import UtopiaProtocol

/// Times the engine's work for one flicker frame through the real engine: a
/// controller on a virtual clock in Test mode (no trial time limit) and
/// `controls` buttons in a pushed view. Each timed sample is one
/// `tick(frame:)` during the flicker phase; the virtual clock moves one frame
/// period before each tick, outside the timed span.
///
/// Three paths: ``Path/engine`` is the engine alone with a link that encodes
/// every message as a real link must (states, colours, STIMULUSEVENT,
/// encoding); ``Path/recorded`` adds a recorder writing into a temporary
/// folder; ``Path/full`` is what runs in an app with a decoder process: the
/// recorder and a ``ZeroMQDecoderLink`` to a decoder on a local `ipc://`
/// socket that answers with heartbeats (queuing the frame and decoder lines
/// and the hand-off to the I/O thread are in the sample).
struct FrameBenchmark {
    /// Which engine set-up is timed.
    enum Path: String, Encodable, CaseIterable {
        /// The engine and an encoding link.
        case engine
        /// The engine, an encoding link and a recorder (an app whose decoder
        /// needs no socket); isolates what recording costs the frame.
        case recorded
        /// Recorder on and a ZeroMQ link to a local decoder.
        case full
    }

    let controls: Int
    let frames: Int
    let warmup: Int
    let codebookFile: String
    var path: Path = .engine
    /// Microseconds from one timed tick's start to the next (0: back to back).
    /// An app's background threads (link I/O, recording writer) work between
    /// frames; pacing gives them that time, as a 16.7 ms frame would.
    var paceMicroseconds = 0

    func run() throws -> FrameBenchmarkResult {
        let settings = NoiseTagSettings()
        try settings.set(value: .text(NoiseTagMode.test.rawValue), for: .mode)
        try settings.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        try settings.set(value: .text(codebookFile), for: .filenameNoiseTags)
        let clock = VirtualClock(start: 100)
        let encoding = EncodingDecoderLink()
        let controller = NoiseTagController(clock: clock, settings: settings, decoderLink: encoding)
        guard controller.codebookSource == codebookFile, controller.codebook.count >= controls else {
            throw FrameBenchmarkError("the codebook \(codebookFile) did not load or has fewer than \(controls) codes")
        }
        // The recorded path: a recorder; the full path: a recorder and a real link to a local decoder.
        var sentBytes = 0, stimulusEvents = 0
        var cleanUps: [() -> Void] = []
        defer { for cleanUp in cleanUps.reversed() { cleanUp() } }
        if path != .engine {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nt-bench-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            cleanUps.append { try? FileManager.default.removeItem(at: folder) }
            if path == .full {
                // The virtual clock runs far faster than real time here, so replies
                // arrive many virtual seconds late: allow the longest silence.
                try settings.set(value: .double(600), for: .decoderTimeout)
                let decoder = try BenchDecoder(endpoint: "ipc://\(folder.path)/decoder.sock", capacity: 1)
                decoder.setMode(.heartbeat)
                let link = try ZeroMQDecoderLink(endpoint: "ipc://\(folder.path)/decoder.sock")
                cleanUps.append { link.close(); decoder.stop() }
                controller.decoderLink = link
                controller.observeDecoderTraffic { traffic in
                    guard traffic.direction == .out, case .stimulusEvent = traffic.message else { return }
                    stimulusEvents += 1
                    sentBytes = traffic.bytes.count
                }
            }
            let recorder = controller.startRecording(in: RecordingStore(root: folder.appendingPathComponent("recordings")))
            cleanUps.append { controller.stopRecording() }
            guard recorder.isRecording else { throw FrameBenchmarkError("could not record into \(folder.path)") }
        }

        let unit = BenchUnit(count: controls)
        controller.push(view: unit.view, forNoiseTaggingWithDelegate: unit)
        controller.trialsAreRunning = true

        let period = 1 / Double(settings.intFor(.preferredNFramesPerSecond))
        let palette = StimulusPalette(settings: settings)
        let origin = clock.now
        var index = 0
        func nextFrame() -> FrameTiming {
            let deadline = origin + Double(index) * period
            clock.advance(to: deadline)
            index += 1
            return FrameTiming(index: index - 1, deadline: deadline, time: clock.now, period: period)
        }

        for _ in 0..<warmup { controller.tick(frame: nextFrame()) }
        if path == .full {
            // Until the decoder answers, trials are blocked: tick in real time for up to 10 s.
            let deadline = MonotonicClock.nanoseconds() &+ 10_000_000_000
            while controller.currentPhase != .flicker, MonotonicClock.nanoseconds() < deadline {
                controller.tick(frame: nextFrame())
                usleep(1_000)
            }
        }
        guard controller.trialsStarted == 1, controller.currentPhase == .flicker else {
            throw FrameBenchmarkError("\(path.rawValue) path: no flicker after \(warmup) warm-up frames (trials started: \(controller.trialsStarted))")
        }
        let renderedBefore = controller.flickerFramesRendered
        let sentBefore = path == .full ? stimulusEvents : encoding.stimulusEvents

        var histogram = LatencySummary.histogram()
        let pace = UInt64(paceMicroseconds) * 1_000
        var next = MonotonicClock.nanoseconds()
        for _ in 0..<frames {
            let frame = nextFrame()
            if pace > 0 {
                next &+= pace
                while MonotonicClock.nanoseconds() < next { usleep(UInt32(min(pace / 2_000, 500))) }
            }
            let start = MonotonicClock.nanoseconds()
            controller.tick(frame: frame)
            let end = MonotonicClock.nanoseconds()
            histogram.record(end &- start)
        }

        let rendered = controller.flickerFramesRendered - renderedBefore
        let sent = (path == .full ? stimulusEvents : encoding.stimulusEvents) - sentBefore
        guard rendered == frames, sent == frames, controller.trialsStarted == 1,
              controller.currentPhase == .flicker else {
            throw FrameBenchmarkError("""
                \(controls) controls: \(rendered) frames rendered and \(sent) STIMULUSEVENTs encoded \
                for \(frames) ticks (\(controller.trialsStarted) trials)
                """)
        }
        let expectedBytes = 4 + 5 + 2 * controls
        let frameBytes = path == .full ? sentBytes : encoding.lastFrame.count
        guard frameBytes == expectedBytes else {
            throw FrameBenchmarkError("\(controls) controls: a STIMULUSEVENT of \(frameBytes) bytes, expected \(expectedBytes)")
        }
        if path == .engine {
            guard case .stimulusEvent(let last)? = try? UtopiaCodec.decode(frame: encoding.lastFrame).first,
                  last.objIDs == (1...controls).map({ UInt8($0) }),
                  zip(unit.buttons, last.objStates).allSatisfy({ $0.flickerColor == palette.color(forState: $1) }) else {
                throw FrameBenchmarkError("\(controls) controls: the last encoded frame does not decode to the buttons' states")
            }
        }
        return FrameBenchmarkResult(
            path: path, controls: controls, frames: frames,
            medianNs: histogram.valueAtPercentile(50), p99Ns: histogram.valueAtPercentile(99),
            p999Ns: histogram.valueAtPercentile(99.9), minNs: histogram.min, maxNs: histogram.max,
            meanNs: histogram.mean, frameBytes: frameBytes)
    }
}
