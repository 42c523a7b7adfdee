/// Press or no-press feedback being shown, with the press's actions waiting
/// for their moment.
struct PressFeedback {
    struct PendingAction {
        let due: Double
        let timing: Double
        let control: String
        let closure: () -> Void
    }

    let start: Double
    let duration: Double
    let mode: ClickFeedbackMode
    /// nil for no-press feedback.
    let source: PressSource?
    let pressed: (any NoiseTagControl)?
    /// Controls whose feedback colour was changed, to restore at the end.
    var touched: [any NoiseTagControl]
    var pending: [PendingAction]
    var animationOn = true

    var end: Double { start + duration }
}
