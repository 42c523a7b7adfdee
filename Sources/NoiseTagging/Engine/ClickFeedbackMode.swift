/// How a press is shown.
///
/// Brain presses follow the mode fully. Touch presses look like a finger
/// press: only the pressed control changes (`NonselectedGray` and
/// `SelectedAnimates` highlight it, `RedBorder` paints it red), for
/// `touchFeedbackDuration`.
public enum ClickFeedbackMode: String, CaseIterable, Codable, Sendable {
    /// No visual change; actions still run on their timing.
    case none = "None"
    /// Every control but the pressed one turns `colorButtonNotPressedFeedback`.
    case nonselectedGray = "NonselectedGray"
    /// The pressed control blinks between its bit-on colour and its default look.
    case selectedAnimates = "SelectedAnimates"
    /// The pressed control is shown red.
    case redBorder = "RedBorder"
}
