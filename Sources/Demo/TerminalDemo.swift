import Decoding
import Foundation
import NoiseTagging
import TerminalUI

/// The full-screen demo: a ``DemoScreen`` on a ``TerminalRunner`` in a
/// ``TerminalSession`` (alternate screen, raw keys, hidden cursor, all
/// restored on `q`, Ctrl-C, SIGTERM, SIGHUP or an error), frame-locked at
/// `preferredNFramesPerSecond`.
///
/// ```swift
/// _ = try TerminalSession.colorMode(environment: ProcessInfo.processInfo.environment)
/// let session = try DemoSession(options: DemoOptions())
/// defer { session.close() }
/// let status = try TerminalDemo(session: session).run()
/// ```
public final class TerminalDemo {
    /// The session shown.
    public let session: DemoSession

    /// A demo of `session`.
    public init(session: DemoSession) { self.session = session }

    /// The run's summary once ``run(maxSeconds:)`` has returned (nil before).
    public private(set) var summary: DemoSummary?

    /// Runs the walk-through until `q`, a signal or `maxSeconds` (0: no
    /// limit); returns the exit status (0 for `q`, 130 for Ctrl-C, 128 + n
    /// for signal n, 2 when `maxSeconds` ran out).
    public func run(maxSeconds: Double = 0) throws -> Int32 {
        let session = self.session
        let decoder = session.decoder
        let loop = FrameLoop(controller: session.controller, waiter: RealTimeFrameWaiter())
        defer { summary = session.scenario.summary(missedFrames: loop.missedFrames) }
        return try TerminalSession.run { terminal in
            let runner = TerminalRunner(session: terminal, loop: loop)
            let screen = DemoScreen(scenario: session.scenario, showsDecoderEEG: decoder != nil,
                                    snapshot: { decoder?.signalSnapshot ?? .empty })
            if terminal.colorMode == .palette256 {
                screen.message = ("256 colours: flicker colours are the nearest palette entries (COLORTERM=truecolor for exact ones)",
                                  session.controller.clock.now + 8)
            }
            session.scenario.start()
            let start = session.controller.clock.now
            var timedOut = false
            let status = runner.run(screen) {
                session.scenario.step()
                timedOut = maxSeconds > 0 && session.controller.clock.now - start >= maxSeconds
                return timedOut || session.scenario.cannotGoOn != nil
            }
            // No trial can start (``DemoScenario/cannotGoOn``): 1, its reason for the caller to print.
            if status == 0, session.scenario.cannotGoOn != nil { return 1 }
            return timedOut && status == 0 ? 2 : status
        }
    }
}
