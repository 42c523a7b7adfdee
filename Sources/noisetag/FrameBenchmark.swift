import Histogram
import NoiseTagging
import UtopiaProtocol

/// Times the engine's work for one flicker frame through the real engine: a
/// controller on a virtual clock in Test mode (no trial time limit), `controls`
/// buttons in a pushed view, and a link that encodes every message as the
/// ZeroMQ link will. Each timed sample is one `tick(frame:)` during the
/// flicker phase: every control's state and colour, the STIMULUSEVENT, its
/// encoding. The virtual clock moves one frame period before each tick,
/// outside the timed span.
///
/// ```swift
/// let result = try FrameBenchmark(controls: 255, frames: 100_000, warmup: 2_000, codebookFile: path).run()
/// ```
struct FrameBenchmark {
    let controls: Int
    let frames: Int
    let warmup: Int
    let codebookFile: String

    func run() throws -> FrameBenchmarkResult {
        let settings = NoiseTagSettings()
        try settings.set(value: .text(NoiseTagMode.test.rawValue), for: .mode)
        try settings.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        try settings.set(value: .text(codebookFile), for: .filenameNoiseTags)
        let clock = VirtualClock(start: 100)
        let link = EncodingDecoderLink()
        let controller = NoiseTagController(clock: clock, settings: settings, decoderLink: link)
        guard controller.codebookSource == codebookFile, controller.codebook.count >= controls else {
            throw FrameBenchmarkError("the codebook \(codebookFile) did not load or has fewer than \(controls) codes")
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
        guard controller.trialsStarted == 1, controller.currentPhase == .flicker else {
            throw FrameBenchmarkError("no flicker after \(warmup) warm-up frames (trials started: \(controller.trialsStarted))")
        }
        let renderedBefore = controller.flickerFramesRendered
        let sentBefore = link.stimulusEvents

        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000_000,
                                          numberOfSignificantValueDigits: .three)
        for _ in 0..<frames {
            let frame = nextFrame()
            let start = NanosecondClock.now()
            controller.tick(frame: frame)
            let end = NanosecondClock.now()
            histogram.record(end &- start)
        }

        let rendered = controller.flickerFramesRendered - renderedBefore
        let sent = link.stimulusEvents - sentBefore
        guard rendered == frames, sent == frames, controller.trialsStarted == 1,
              controller.currentPhase == .flicker else {
            throw FrameBenchmarkError("""
                \(controls) controls: \(rendered) frames rendered and \(sent) STIMULUSEVENTs encoded \
                for \(frames) ticks (\(controller.trialsStarted) trials)
                """)
        }
        let expectedBytes = 4 + 5 + 2 * controls
        guard link.lastFrame.count == expectedBytes else {
            throw FrameBenchmarkError("\(controls) controls: a STIMULUSEVENT of \(link.lastFrame.count) bytes, expected \(expectedBytes)")
        }
        guard case .stimulusEvent(let last)? = try? UtopiaCodec.decode(frame: link.lastFrame).first,
              last.objIDs == (1...controls).map({ UInt8($0) }),
              zip(unit.buttons, last.objStates).allSatisfy({ $0.flickerColor == palette.color(forState: $1) }) else {
            throw FrameBenchmarkError("\(controls) controls: the last encoded frame does not decode to the buttons' states")
        }
        return FrameBenchmarkResult(
            controls: controls, frames: frames,
            medianNs: histogram.valueAtPercentile(50), p99Ns: histogram.valueAtPercentile(99),
            p999Ns: histogram.valueAtPercentile(99.9), minNs: histogram.min, maxNs: histogram.max,
            meanNs: histogram.mean, frameBytes: link.lastFrame.count)
    }
}
