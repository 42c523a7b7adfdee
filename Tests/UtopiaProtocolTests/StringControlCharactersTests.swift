import Testing
import UtopiaProtocol

/// Error lines quote bytes of damaged files: control characters must come out as escapes.
@Suite struct StringControlCharactersTests {
    @Test func controlCharactersBecomeEscapesAndTheRestStays() {
        #expect("line\none\r\ttab".escapingControlCharacters == "line\\none\\r\\ttab")
        #expect("\u{1B}[2J\u{0}\u{7F}\u{85}".escapingControlCharacters == "\\u{1B}[2J\\u{0}\\u{7F}\\u{85}")
        let plain = "µV \"quoted\" back\\slash, ü, 電極"
        #expect(plain.escapingControlCharacters == plain)
        #expect(!"a\u{2028}\u{0}b".escapingControlCharacters.contains("\u{0}"))
    }
}
