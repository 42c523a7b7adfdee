import Foundation
import Testing
import JSONSupport

/// Where a hand-written JSON file stops being JSON, as the error line says it.
@Suite struct JSONSyntaxTests {
    func problem(_ text: String) -> String? { JSONProblem.syntax(in: Data(text.utf8)) }

    @Test func jsonIsNoProblem() {
        #expect(problem(#" {"a": [1, -2.5e3, 0, true, false, null, "x\u00e9\n\"", {}], "b": {"c": []}} "#) == nil)
        #expect(problem("42") == nil && problem(#""text""#) == nil)
        // Nesting deeper than the reader goes is left to it (JSONProblem.beyondReach names it).
        #expect(problem(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) == nil)
    }

    @Test func whatFoundationTakesButJSONDoesNotIsNamedWithItsPlace() {
        #expect(problem(#"{"steps":[{"kind":"break","seconds":1,}],}"#)
                == "not JSON: a comma before '}' at line 1, column 39 (JSON allows no trailing comma)")
        #expect(problem("[1, 2,\n]") == "not JSON: a comma before ']' at line 2, column 1 (JSON allows no trailing comma)")
        #expect(problem("{\n  // the mains\n  \"lineFrequency\": 60\n}") == "not JSON: '/' at line 2, column 3 (JSON has no comments)")
        #expect(problem("{} x") == "not JSON: more text after the value ends, at line 1, column 4")
    }

    @Test func commonSlipsAreNamedWithTheirPlace() {
        #expect(problem("{\n  \"a\": 1\n  \"b\": 2\n}")
                == "not JSON: an unexpected '\"' at line 3, column 3 (',' or '}' belongs here: a comma missing?)")
        #expect(problem("{'a': 1}") == "not JSON: an unexpected ''' at line 1, column 2 (a member's name in \" belongs here)")
        #expect(problem("{\"a\" 1}") == "not JSON: an unexpected '1' at line 1, column 6 (':' belongs after a member's name)")
        #expect(problem("{\"a\": yes}") == "not JSON: an unexpected 'y' at line 1, column 7 (a value belongs here)")
        #expect(problem("[01]") == "not JSON: a malformed number at line 1, column 2")
        #expect(problem("[1.]") == "not JSON: a malformed number at line 1, column 2")
        #expect(problem(#"["\x"]"#) == "not JSON: a bad escape '\\x' at line 1, column 3")
        #expect(problem("[1}]") == "not JSON: an unexpected '}' at line 1, column 3")
        #expect(problem("[\"a\tb\"]") == "not JSON: a control character (byte 9) inside a string at line 1, column 4")
    }

    @Test func cutShortAndEmptyAreSaidAsSuch() {
        #expect(problem(#"{"steps": ["#) == "not JSON: it ends inside an unclosed array (cut short?)")
        #expect(problem(#"{"a": 1"#) == "not JSON: it ends inside an unclosed object (cut short?)")
        #expect(problem(#"{"a": "b"#) == "not JSON: it ends inside a string (cut short?)")
        #expect(problem(" \n ") == "the file is empty")
    }

    @Test func textThatIsNotUTF8IsNamedByItsByte() {
        #expect(JSONProblem.syntax(in: Data([0x7B, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0xE9, 0x22, 0x7D])) // {"n":"é"} in Latin-1
                == "not UTF-8 text: byte 0xE9 at line 1, column 7 is no UTF-8 (JSON is UTF-8: save the file as UTF-8)")
        #expect(problem(#"{"n": "é ✓ 𝄞"}"#) == nil)
        #expect(JSONProblem.syntax(in: Data([0x5B, 0xED, 0xA0, 0x80, 0x5D])) != nil, "a UTF-16 surrogate is no UTF-8")
    }
}
