import Codes
import Decoding
import Simulation

/// The simulated participant of a headless session: looks where each step
/// asks (the key the text needs next while spelling, nowhere in a
/// no-control stretch or a break), reads instructions for a while before
/// pressing a key, and answers questionnaire items with keys drawn from its
/// seed. Its gaze goes to the decoder's simulated amplifier through a
/// ``GazeFocus``, so the decoder must still find it in the EEG.
public final class SimulatedParticipant {
    /// Where its gaze is published.
    public let focus: GazeFocus
    private var generator: SeededGenerator

    /// A participant looking through `focus`, answering from `seed`.
    public init(focus: GazeFocus, seed: UInt64) {
        self.focus = focus
        generator = SeededGenerator(seed: seed ^ 0x5E55_10F0)
    }

    /// Looks at the control with `objectID`, or away (nil).
    public func look(at objectID: Int?) {
        let id = objectID.flatMap { UInt8(exactly: $0) }
        if focus.objectID != id { focus.objectID = id }
    }

    /// Seconds it takes to read `text` before pressing a key: 1 s plus 25 characters a second, at most 8 s.
    public static func readingSeconds(_ text: String) -> Double { min(8, 1 + Double(text.count) / 25) }

    /// Seconds it takes to answer a question.
    public static let answerSeconds = 1.5

    /// Its answer to `item`: a key 1…scale, drawn from the seed (the middle of a Likert scale more often).
    public func answer(_ item: QuestionnaireItem) -> Int {
        switch item.style {
        case .choice:
            return Int(generator.next() % UInt64(item.scale)) + 1
        case .likert:
            let draw = (generator.nextUniform() + generator.nextUniform()) / 2
            return min(item.scale, max(1, Int(draw * Double(item.scale)) + 1))
        }
    }
}
