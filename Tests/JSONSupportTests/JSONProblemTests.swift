import Foundation
import Testing
import JSONSupport

/// A value of the wrong kind, named by its field even where Foundation names none.
@Suite struct JSONProblemTests {
    struct Trial: Decodable {
        var trial: Int
        var time: Double
        var state: [String: Double]
        var objectIDs: [Int]
    }

    func problem(_ text: String) -> String {
        let data = Data(text.utf8)
        do { _ = try JSONDecoder().decode(Trial.self, from: data); return "decoded" } catch {
            return JSONProblem.describe(error, decoding: Trial.self, from: data)
        }
    }

    @Test func theWholeNumberFieldIsNamedAmongFractionsThatBelong() {
        // "time" and "state.lastHeard" hold fractions rightly; the suspect is the one whose repair decodes.
        #expect(problem(#"{"trial": 11.5, "time": 3.25, "state": {"lastHeard": 7.5}, "objectIDs": [1, 2]}"#)
                == #""trial" must be a whole number (it is 11.5)"#)
        #expect(problem(#"{"trial": 1e20, "time": 3.25, "state": {}, "objectIDs": []}"#)
                == #""trial" is 1e+20, beyond a whole number's range (about ±9.2e18)"#)
        #expect(problem(#"{"trial": 1, "time": 3.25, "state": {}, "objectIDs": [1, 2.5]}"#)
                == #""objectIDs[1]" must be a whole number (it is 2.5)"#)
        #expect(problem(#"{"trial": 1, "time": 3.25, "state": {}, "objectIDs": [1]}"#) == "decoded")
        // Two wrong at once: no single repair decodes, so the fields are only suspects, as before.
        #expect(problem(#"{"trial": 1.5, "time": 3.25, "state": {}, "objectIDs": [2.5]}"#).hasPrefix("a value of the wrong kind"))
        #expect(problem(#"{"trial": "x", "time": 3.25, "state": {}, "objectIDs": []}"#) == #""trial" must be a whole number"#)
    }
}
