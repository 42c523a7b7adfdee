import NoiseTagging

/// One display frame at a time, time-locked: the ``FrameLoop`` waits for
/// the frame's deadline and ticks the engine, then the frame is drawn,
/// encoded (changed cells only) and written with one `write(2)`. When the
/// terminal has not yet taken the previous frame's bytes, this frame is
/// not drawn at all and is counted in ``framesNotWritten``: frames are
/// never queued, so a slow terminal cannot put the display behind the
/// flicker codes.
///
/// ```swift
/// let driver = TerminalFrameDriver(loop: FrameLoop(controller: controller, waiter: RealTimeFrameWaiter()),
///                                  screen: screen, output: session.output)
/// while running { driver.step { screen in scene.draw(on: screen, missedFrames: driver.missedFrames) } }
/// ```
public final class TerminalFrameDriver {
    /// The engine's frame loop.
    public let loop: FrameLoop
    /// The grid drawn each frame.
    public let screen: TerminalScreen
    /// Where frames are written.
    public let output: FrameOutput
    /// Frames drawn and handed to the output.
    public private(set) var framesWritten = 0
    /// Frames not drawn because the previous frame's bytes were still pending.
    public private(set) var framesNotWritten = 0
    /// Bytes of the latest frame written.
    public private(set) var lastFrameBytes = 0
    private var bytes: [UInt8] = []

    /// Creates a driver.
    public init(loop: FrameLoop, screen: TerminalScreen, output: FrameOutput) {
        self.loop = loop
        self.screen = screen
        self.output = output
        bytes.reserveCapacity(64 * 1024)
    }

    /// All frames missed: late or skipped by the frame loop, plus frames not written in time.
    public var missedFrames: Int { loop.missedFrames + framesNotWritten }

    /// Runs one frame: waits for its deadline and ticks the engine; then,
    /// unless the previous frame is still being written, calls `draw` and
    /// writes the changes. Returns true when the frame was written.
    @discardableResult
    public func step(draw: (TerminalScreen) -> Void) -> Bool {
        loop.step()
        guard output.flushPending() else {
            framesNotWritten += 1
            return false
        }
        draw(screen)
        bytes.removeAll(keepingCapacity: true)
        screen.encodeChanges(into: &bytes)
        output.submit(bytes)
        lastFrameBytes = bytes.count
        framesWritten += 1
        return true
    }
}
