import Simulation
import TerminalUI
import Testing
@testable import Demo

/// What the simulated speller looks at, and the keyboard's keys.
@Suite("Spelling user and keyboard")
struct SpellingUserTests {
    @Test("The next letter, space, delete after a wrong letter, yes or no on the popup, nothing when done")
    func choices() {
        #expect(SpellingUser.choice(goal: "HI U", typed: "", popupOpen: false) == "H")
        #expect(SpellingUser.choice(goal: "HI U", typed: "HI", popupOpen: false) == SpellerKeyboard.space)
        #expect(SpellingUser.choice(goal: "HI U", typed: "HX", popupOpen: false) == SpellerKeyboard.delete)
        #expect(SpellingUser.choice(goal: "HI U", typed: "HI U", popupOpen: false) == nil)
        #expect(SpellingUser.choice(goal: "HI U", typed: "HI U", popupOpen: true) == ConfirmationPopup.yesIdentifier)
        #expect(SpellingUser.choice(goal: "HI U", typed: "HI X", popupOpen: true) == ConfirmationPopup.noIdentifier)
    }

    @Test("The user's choice reaches the gaze focus as the key's object ID")
    func focus() {
        let focus = GazeFocus()
        let keyboard = SpellerKeyboard()
        let user = SpellingUser(goal: "hi", focus: focus)
        user.look(typed: "", popup: nil, keyboard: keyboard, done: false)
        #expect(focus.objectID == 8)
        user.look(typed: "HQ", popup: nil, keyboard: keyboard, done: false)
        #expect(focus.objectID == 28)
        let popup = ConfirmationPopup(question: "Send?")
        user.look(typed: "HI", popup: popup, keyboard: keyboard, done: false)
        #expect(focus.objectID == 31)
        user.look(typed: "HI", popup: nil, keyboard: keyboard, done: true)
        #expect(focus.objectID == nil)
    }

    @Test("Keys: A-Z then space and delete with object IDs 1...28, touch bytes, no overlap")
    func keys() {
        let keyboard = SpellerKeyboard()
        #expect(keyboard.keys.map { $0.noiseTagging.customUtopiaObjectID } == Array(1...28))
        #expect(keyboard.key(forTouch: UInt8(ascii: "Q"))?.label == "Q")
        #expect(keyboard.key(forTouch: UInt8(ascii: "q")) == nil, "lower case is for commands")
        #expect(keyboard.key(forTouch: UInt8(ascii: "_"))?.label == SpellerKeyboard.space)
        #expect(keyboard.key(forTouch: 0x7F) === keyboard.deleteKey)
        #expect(keyboard.key(typing: " ")?.label == SpellerKeyboard.space)
        for (i, a) in keyboard.keys.enumerated() {
            for b in keyboard.keys[(i + 1)...] {
                let x = a.frame, y = b.frame
                #expect(x.x + x.width <= y.x || y.x + y.width <= x.x || x.y + x.height <= y.y || y.y + y.height <= x.y)
            }
        }
    }

    @Test("Goals: letters and spaces only")
    func goals() {
        #expect(DemoOptions.problem(withGoal: "hello world") == nil)
        #expect(DemoOptions.problem(withGoal: "HI 2U")?.contains("'2'") == true)
        #expect(DemoOptions.problem(withGoal: "   ") != nil)
    }
}

/// The demo's keys that must not end the session.
@Suite("Demo keys")
struct DemoKeyTests {
    @Test("Only lower-case q and Ctrl-C quit: upper-case Q types Q by touch")
    func quitKeys() {
        #expect(TerminalInput.key(UInt8(ascii: "q")).endsSession)
        #expect(TerminalInput.key(3).endsSession)
        #expect(!TerminalInput.key(UInt8(ascii: "Q")).endsSession)
        #expect(SpellerKeyboard().key(forTouch: UInt8(ascii: "Q"))?.label == "Q")
    }
}
