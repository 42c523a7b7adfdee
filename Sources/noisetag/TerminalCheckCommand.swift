import ArgumentParser
import Foundation
import IOThreads
import NoiseTagging
import TerminalUI

/// `noisetag terminal-check`: a grid of flickering brain buttons in the
/// terminal, driven by the real engine on its frame loop with an in-memory
/// decoder link (no decoder): checks that the terminal shows the flicker.
struct TerminalCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal-check",
        abstract: "Flicker a grid of buttons full-screen to check the terminal display (no decoder).",
        discussion: """
            Test-mode trials flicker until a press: a button's label key presses it by touch, \
            space turns trials off and on, q or Ctrl-C quits. The header shows mode, trial, \
            phase, decoder state (the in-memory link counts as connected) and missed frames. \
            Needs a terminal with 24-bit colour (COLORTERM=truecolor) or 256 colours \
            (TERM=…-256color); exits 1 naming the reason otherwise.
            """)

    @Option(parsing: .unconditional, help: "Number of buttons (1...255).")
    var controls = 9

    @Option(parsing: .unconditional, help: "Quit by itself after this many seconds; 0 runs until q.")
    var seconds: Double = 0

    @Option(parsing: .unconditional, help: .hidden)
    var throwAfter: Double = 0

    /// The error `--throw-after` raises, to check that a Swift error restores the terminal.
    struct DeliberateFailure: Error, CustomStringConvertible {
        let description = "deliberate failure (--throw-after)"
    }

    func validate() throws {
        guard (1...255).contains(controls) else { throw ValidationError("--controls must be 1...255, got \(controls)") }
        guard seconds >= 0, seconds.isFinite else { throw ValidationError("--seconds must be >= 0") }
    }

    func run() throws {
        let link = InMemoryDecoderLink()
        let controller = NoiseTagController(clock: MonotonicClock.shared, decoderLink: link)
        try controller.settings.set(value: .bool(true), for: .disableMaxTestTrialDuration)
        let grid = ButtonGrid(count: controls)
        controller.push(view: grid.view, forNoiseTaggingWithDelegate: grid)
        controller.set(mode: .test, waitTillDecoderConfirms: false, withExplanation: "noisetag terminal-check")
        controller.trialsAreRunning = true
        let scene = ButtonBoardScene(
            controller: controller, buttons: grid.buttons,
            footer: TerminalFooter(keys: [("space", "trials on/off"), (controls == 1 ? "1" : "1-\(min(controls, 9))", "press by touch"),
                                          ("q", "quit")]))
        let status: Int32
        do {
            status = try TerminalSession.run { session in
                let runner = TerminalRunner(session: session,
                                            loop: FrameLoop(controller: controller, waiter: RealTimeFrameWaiter()))
                let start = controller.clock.now
                var failed = false
                let code = runner.run(scene) {
                    // The in-memory link keeps what the engine sent; nobody reads it here.
                    link.clearSent()
                    let elapsed = controller.clock.now - start
                    failed = throwAfter > 0 && elapsed >= throwAfter
                    return failed || (seconds > 0 && elapsed >= seconds)
                }
                if failed { throw DeliberateFailure() }
                return code
            }
        } catch let error as TerminalError {
            FileHandle.standardError.writeIfOpen(Data("noisetag terminal-check: \(error)\n".utf8))
            throw ExitCode.failure
        } catch let error as DeliberateFailure {
            FileHandle.standardError.writeIfOpen(Data("noisetag terminal-check: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if status != 0 { throw ExitCode(status) }
    }
}
