/// A `ScriptedSession` step that cannot run: it touches a button the session
/// does not have.
public struct ScriptedSessionError: Error, CustomStringConvertible {
    /// The trial the step belongs to.
    public let trial: Int
    /// The button index the step touches.
    public let button: Int
    /// How many buttons the session has.
    public let buttons: Int

    public var description: String {
        "scripted session: the step in trial \(trial) touches button \(button), but the session has \(buttons) buttons (0...\(buttons - 1))"
    }
}
