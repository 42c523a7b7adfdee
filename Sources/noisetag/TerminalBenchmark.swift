#if canImport(Glibc)
import Glibc
#endif
import NoiseTagging
import TerminalUI

/// Times `noisetag bench terminal`'s frames: the standard button screen
/// (``ButtonBoardScene``: header, a grid of labelled blocks, footer) drawn
/// and encoded, then written with one `write(2)`.
///
/// Patterns: `all` gives every button the other flicker colour each frame,
/// `none` keeps every colour, `flicker` runs a Test-mode trial of the
/// engine on a virtual clock (the engine's tick is not timed).
struct TerminalBenchmark {
    /// Which cells change each frame.
    enum Pattern: String, CaseIterable {
        case all, none, flicker
    }

    let controls: Int
    let pattern: Pattern
    let frames: Int
    let warmup: Int
    /// Where frames are written (a pty or /dev/null).
    let output: TerminalBenchmarkSink
    /// A codebook file with a code for every control (the flicker pattern loads it).
    let codebookFile: String

    func run() throws -> TerminalBenchmarkResult {
        let clock = VirtualClock()
        let controller = NoiseTagController(clock: clock, decoderLink: InMemoryDecoderLink())
        try controller.settings.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        try controller.settings.set(value: .text(codebookFile), for: .filenameNoiseTags)
        let grid = ButtonGrid(count: controls)
        let loop = FrameLoop(controller: controller, waiter: VirtualFrameWaiter(clock: clock))
        if pattern == .flicker {
            controller.push(view: grid.view, forNoiseTaggingWithDelegate: grid)
            controller.set(mode: .test)
            controller.trialsAreRunning = true
        }
        let scene = ButtonBoardScene(controller: controller, buttons: grid.buttons,
                                     footer: TerminalFooter(keys: [("space", "trials on/off"), ("q", "quit")]))
        let screen = TerminalScreen(size: scene.minimumSize, colorMode: .trueColor)
        let palette = StimulusPalette(settings: controller.settings)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 20)
        var renderSamples: [UInt64] = [], writeSamples: [UInt64] = []
        renderSamples.reserveCapacity(frames)
        writeSamples.reserveCapacity(frames)
        var cells = 0, written = 0, floor = 0
        for frame in 0..<(warmup + frames) {
            switch pattern {
            case .all:
                let color = frame % 2 == 0 ? palette.bitOn : palette.bitOff
                for button in grid.buttons { button.setFlickerColor(color) }
            case .none:
                if frame == 0 { for button in grid.buttons { button.setFlickerColor(palette.bitOff) } }
            case .flicker:
                loop.step()
            }
            bytes.removeAll(keepingCapacity: true)
            let start = MonotonicClock.nanoseconds()
            scene.draw(on: screen, missedFrames: 0)
            screen.encodeChanges(into: &bytes)
            let encoded = MonotonicClock.nanoseconds()
            output.write(bytes)
            let end = MonotonicClock.nanoseconds()
            output.drainReader()
            guard frame >= warmup else { continue }
            if pattern == .flicker, controller.currentPhase != .flicker {
                throw TerminalBenchmarkSink.Failure(description: "the engine does not flicker \(controls) controls")
            }
            renderSamples.append(encoded &- start)
            writeSamples.append(end &- encoded)
            cells += screen.lastChangedCells
            written += bytes.count
            floor += screen.lastCharacterBytes
        }
        let n = Double(frames)
        return TerminalBenchmarkResult(
            controls: controls, pattern: pattern.rawValue, columns: screen.size.columns, rows: screen.size.rows,
            changedCells: Double(cells) / n, bytesPerFrame: Double(written) / n, floorBytesPerFrame: Double(floor) / n,
            render: LatencySummary(renderSamples), write: LatencySummary(writeSamples))
    }
}
