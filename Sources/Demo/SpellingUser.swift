import Simulation

/// The simulated user's mind in Test: what a person spelling `goal` on the
/// keyboard would look at next, given what is on screen. The next letter
/// while the typed text is a prefix of the goal; the delete key after a
/// wrong letter; "Yes" on the confirmation popup when the text is right,
/// "No" when it is not; nothing once the goal is sent. The choice is
/// published through a ``GazeFocus`` that the decoder's simulated amplifier
/// reads when each prediction trial starts, so the decoder must still find
/// it in the EEG.
///
/// ```swift
/// let user = SpellingUser(goal: "HELLO WORLD", focus: focus)
/// user.look(typed: keyboard.typed, popup: nil, keyboard: keyboard, done: false)
/// focus.objectID          // 8, the H key
/// ```
public final class SpellingUser {
    /// The text the user wants to type.
    public let goal: String
    /// Where the user's choice is published.
    public let focus: GazeFocus
    /// The identifier of the control the user looks at now, nil for none.
    public private(set) var intended: String?

    /// A user spelling `goal` (upper-cased; letters and spaces only).
    public init(goal: String, focus: GazeFocus) {
        self.goal = goal.uppercased()
        self.focus = focus
    }

    /// What a speller looks at given the typed text and an open popup, as
    /// an identifier: a letter, ``SpellerKeyboard/space``,
    /// ``SpellerKeyboard/delete``, ``ConfirmationPopup/yesIdentifier`` or
    /// ``ConfirmationPopup/noIdentifier``; nil when done.
    public static func choice(goal: String, typed: String, popupOpen: Bool) -> String? {
        if popupOpen { return typed == goal ? ConfirmationPopup.yesIdentifier : ConfirmationPopup.noIdentifier }
        guard goal.hasPrefix(typed) else { return SpellerKeyboard.delete }
        guard let next = goal.dropFirst(typed.count).first else { return nil }
        return next == " " ? SpellerKeyboard.space : String(next)
    }

    /// Decides where to look now and publishes it (nil focus when done or
    /// when the choice is not on screen).
    public func look(typed: String, popup: ConfirmationPopup?, keyboard: SpellerKeyboard, done: Bool) {
        let choice = done ? nil : Self.choice(goal: goal, typed: typed, popupOpen: popup != nil)
        intended = choice
        let controls = popup.map { [$0.yes, $0.no] } ?? keyboard.keys
        let id = choice.flatMap { name in controls.first { $0.noiseTagging.identifier == name } }?
            .noiseTagging.customUtopiaObjectID
        let objectID = id.flatMap { UInt8(exactly: $0) }
        if focus.objectID != objectID { focus.objectID = objectID }
    }
}
