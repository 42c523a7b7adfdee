/// What a ``TerminalRunner`` shows: a screen drawn each frame from the
/// scene's own state, and the keys it answers.
///
/// ```swift
/// final class Hello: TerminalScene {
///     let minimumSize = TerminalSize(columns: 20, rows: 3)
///     func draw(on screen: TerminalScreen, missedFrames: Int) {
///         screen.clear()
///         screen.write("hello", row: 1, column: 2, foreground: .white, background: .black)
///     }
///     func handle(key: UInt8) {}
/// }
/// ```
public protocol TerminalScene: AnyObject {
    /// The smallest window the scene can be drawn in; below it the runner
    /// shows a "terminal too small" message instead and blocks trials.
    var minimumSize: TerminalSize { get }

    /// Draws the whole frame (the screen is at least ``minimumSize``).
    /// `missedFrames` counts frames late, skipped or not written in time.
    func draw(on screen: TerminalScreen, missedFrames: Int)

    /// A key byte other than the ones that end the session (`q`, Ctrl-C).
    func handle(key: UInt8)
}
