/// One question of a ``SessionStep/Kind/questionnaire`` step, answered with
/// the keys 1…N: a Likert scale of N points or a choice among N options.
public struct QuestionnaireItem: Sendable, Equatable {
    /// Likert scale or choice.
    public enum Style: String, Sendable, Equatable {
        /// Points 1…scale, with optional anchors for the two ends.
        case likert
        /// One of `choices`.
        case choice
    }

    /// The answer's key in the results (unique within the step).
    public var id: String
    /// The question shown.
    public var question: String
    /// Likert or choice.
    public var style: Style
    /// Likert points (2…9); for a choice, the number of choices.
    public var scale: Int
    /// A Likert scale's end labels (low, high), or a choice's options.
    public var labels: [String]

    /// An item; `labels` are a Likert scale's two end labels (or none) or a choice's options.
    public init(id: String, question: String, style: Style, scale: Int, labels: [String]) {
        self.id = id
        self.question = question
        self.style = style
        self.scale = scale
        self.labels = labels
    }

    /// What key `k` (1-based) answers: the choice, or the Likert point as text.
    public func answerText(_ k: Int) -> String {
        style == .choice ? labels[k - 1] : String(k)
    }
}
