import NoiseTagging

/// Runs a ``TerminalScene`` in a ``TerminalSession`` on a frame loop until
/// `q`, Ctrl-C or an ending signal: reads input each frame (a resize
/// redraws the whole screen at the new size), hands other keys to the
/// scene, and draws either the scene or, when the window is smaller than
/// the scene's minimum, a "terminal too small" message until it is
/// enlarged, with the controller's trials blocked meanwhile (nobody looks
/// at a key they cannot see, and a calibration trial shown to nobody would
/// teach the decoder noise).
///
/// ```swift
/// let code = try TerminalSession.run { session in
///     let runner = TerminalRunner(session: session, loop: FrameLoop(controller: controller, waiter: RealTimeFrameWaiter()))
///     return runner.run(scene)
/// }
/// ```
public final class TerminalRunner {
    /// The session drawn into.
    public let session: TerminalSession
    /// The frame driver (its ``TerminalFrameDriver/missedFrames`` is the run's count).
    public let driver: TerminalFrameDriver

    /// Creates a runner for `session`, ticking `loop`'s controller every frame.
    public init(session: TerminalSession, loop: FrameLoop) {
        self.session = session
        driver = TerminalFrameDriver(loop: loop, screen: TerminalScreen(size: session.size, colorMode: session.colorMode),
                                     output: session.output)
    }

    /// The whole frame on the next draw, at the window's size now (after a stop).
    private func redraw() {
        driver.screen.resize(to: session.size)
        driver.screen.invalidate()
    }

    /// Runs frames until the session ends or `shouldStop` returns true;
    /// returns the exit status (0 for `q` or a stop, 130 for Ctrl-C,
    /// 128 + n for signal n).
    public func run(_ scene: TerminalScene, shouldStop: () -> Bool = { false }) -> Int32 {
        var visible = true
        while !shouldStop() {
            for input in session.readInput() {
                if input.endsSession { return input.exitCode }
                if input.asksToSuspend {
                    // Ctrl-Z or SIGTSTP: trials stop (a trial cut by the stop would mislead the decoder), the terminal is
                    // the shell's until `fg`, then the frame is drawn whole; trials go on as before.
                    guard session.canSuspend else { continue }
                    let controller = driver.loop.controller
                    if visible {
                        Self.blockTrials(true, of: controller)
                        controller.tick()       // the trial under way ends now, not after the stop
                    }
                    session.suspend()
                    driver.loop.resume()
                    redraw()
                    if visible { Self.blockTrials(false, of: controller) }
                    continue
                }
                switch input {
                case .resized(let size): driver.screen.resize(to: size)
                case .key(let byte): scene.handle(key: byte)
                case .signal(.continued): redraw()
                case .signal: break
                }
            }
            let fits = driver.screen.size.contains(scene.minimumSize)
            if fits != visible {
                visible = fits
                Self.blockTrials(!fits, of: driver.loop.controller)
            }
            driver.step { screen in
                if fits {
                    scene.draw(on: screen, missedFrames: driver.missedFrames)
                } else {
                    Self.drawTooSmall(on: screen, needed: scene.minimumSize)
                }
            }
        }
        return 0
    }

    /// Blocks `controller`'s trials while the window is too small for the
    /// scene (the trial under way ends as blocked), and lifts that block
    /// when it fits again.
    public static func blockTrials(_ tooSmall: Bool, of controller: NoiseTagController) {
        if tooSmall { controller.blockTrials() } else { controller.unblockTrials() }
    }

    /// The waiting screen shown while the window is smaller than `needed`.
    public static func drawTooSmall(on screen: TerminalScreen, needed: TerminalSize) {
        let bg = TerminalRGB(red: 40, green: 10, blue: 10), fg = TerminalRGB.white
        screen.clear(to: TerminalCell(character: " ", foreground: fg, background: bg))
        let lines = ["Terminal too small", "needs \(needed)", "has \(screen.size)", "enlarge it or press q"]
        let top = max(0, (screen.size.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            let width = line.unicodeScalars.count
            screen.write(line, row: top + offset, column: max(0, (screen.size.columns - width) / 2),
                         foreground: fg, background: bg)
        }
    }
}
