/// Something a control does when pressed, at a point of the press feedback.
///
/// `timing` is a fraction of the feedback duration: 0 runs at once, 1 when
/// the feedback ends. Actions are added with
/// ``NoiseTagControlProperties/addAction(timing:closure:)`` during an update.
public struct NoiseTagAction {
    /// Fraction 0…1 of the feedback duration at which the action runs.
    public let timing: Double
    /// The work to do.
    public let closure: () -> Void
}
