import Foundation
import Testing
@testable import NoiseTagging

@Suite("Recording lines")
struct RecordingLineTests {
    private func text(_ body: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        body(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("numbers have fixed decimals without Foundation formatting")
    func numbers() {
        #expect(text { RecordingLine.appendFixed(1.5, decimals: 3, to: &$0) } == "1.500")
        #expect(text { RecordingLine.appendFixed(-0.0000015, decimals: 6, to: &$0) } == "-0.000002")
        #expect(text { RecordingLine.appendFixed(1_569_231_885.1237, decimals: 3, to: &$0) } == "1569231885.124")
        #expect(text { RecordingLine.appendFixed(12, decimals: 0, to: &$0) } == "12")
        #expect(text { RecordingLine.appendFixed(.nan, decimals: 2, to: &$0) } == "nan")
        #expect(text { RecordingLine.appendInt(-42, to: &$0) } == "-42")
        #expect(text { RecordingLine.appendInt(0, to: &$0) } == "0")
    }

    @Test("states pack four to a hex digit, or two hex digits each beyond 0/1, and decode back")
    func states() {
        #expect(text { RecordingLine.appendStates([1, 0, 0, 1, 1], to: &$0) } == "5b98")
        #expect(text { RecordingLine.appendStates([0, 2, 255], to: &$0) } == "3v0002ff")
        #expect(text { RecordingLine.appendStates([], to: &$0) } == "")
        for states in [[UInt8](), [1], [0, 1, 1, 0, 1, 0, 0, 1, 1], (0..<255).map { UInt8($0 % 2) }, [3, 0, 7]] {
            #expect(RecordingLine.states(from: text { RecordingLine.appendStates(states, to: &$0) }) == states)
        }
        #expect(RecordingLine.states(from: "5b9") == nil && RecordingLine.states(from: "x") == nil)
    }

    @Test("a frame line has the documented cells")
    func frameLine() {
        let record = FrameRecord(index: 12, deadline: 0.2, time: 0.200113, missed: false, trial: 1, phase: .flicker,
                                 objIDs: [1, 2, 3, 4, 5], states: [1, 0, 0, 1, 1])
        let line = String(decoding: RecordingLine.frame(record, wallTime: 1_569_232_285.123), as: UTF8.self)
        #expect(line == "12,0.200000,0.200113,1569232285.123,0,1,f,5b98\n")
        let idle = FrameRecord(index: 3, deadline: 1, time: 1.03, missed: true, trial: nil, phase: nil, objIDs: [], states: [])
        #expect(String(decoding: RecordingLine.frame(idle, wallTime: 2), as: UTF8.self) == "3,1.000000,1.030000,2.000,1,,,\n")
    }

    @Test("CSV cells with commas, quotes and line breaks round trip on one line")
    func csv() {
        let cells = ["plain", "a,b", "say \"hi\"", "two\nlines", ""]
        let line = CSVRow.line(cells)
        #expect(!line.contains("\n"))
        #expect(CSVRow.cells(of: line) == ["plain", "a,b", "say \"hi\"", "two lines", ""])
    }
}
