import NoiseTagging

/// A yes/no question pushed on top of the keyboard (the unit stack): two
/// brain buttons, "Yes" and "No" (object IDs 31 and 32), under a question.
/// A press answers as its feedback starts; the demo pops it when the feedback has ended.
///
/// ```swift
/// let popup = ConfirmationPopup(question: "Send \"HELLO WORLD\"?")
/// controller.push(view: popup.view, forNoiseTaggingWithDelegate: popup)
/// // … a brain press on Yes …
/// popup.answer      // true
/// controller.pop()
/// ```
public final class ConfirmationPopup: NoiseTagDelegate {
    /// The unit's view.
    public let view = NoiseTagView()
    /// The question shown above the buttons.
    public let question: String
    /// The "Yes" button (object ID 31, touch key `Y`).
    public let yes: NoiseTagButton
    /// The "No" button (object ID 32, touch key `N`).
    public let no: NoiseTagButton
    /// The answer, nil until a button is pressed.
    public private(set) var answer: Bool?

    /// The identifiers of the two buttons.
    public static let yesIdentifier = "yes", noIdentifier = "no"

    /// A popup asking `question`.
    public init(question: String) {
        self.question = question
        yes = NoiseTagButton(identifier: Self.yesIdentifier, label: "Yes",
                             frame: NoiseTagRect(x: 0, y: 0, width: 11, height: 3), customUtopiaObjectID: 31)
        no = NoiseTagButton(identifier: Self.noIdentifier, label: "No",
                            frame: NoiseTagRect(x: 15, y: 0, width: 11, height: 3), customUtopiaObjectID: 32)
        view.add(yes)
        view.add(no)
    }

    /// The button a keyboard byte presses by touch: `Y` or `N`.
    public func button(forTouch byte: UInt8) -> NoiseTagButton? {
        switch byte {
        case UInt8(ascii: "Y"): return yes
        case UInt8(ascii: "N"): return no
        default: return nil
        }
    }

    /// Gives both buttons their answering action.
    public func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        try? yes.noiseTagging.addAction(timing: 0) { [unowned self] in self.answer = true }
        try? no.noiseTagging.addAction(timing: 0) { [unowned self] in self.answer = false }
    }

    /// Names the unit in events and recordings.
    public func contextDescription() -> String? { "confirmation popup: \(question)" }
}
