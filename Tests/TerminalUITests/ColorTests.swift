import Testing
@testable import TerminalUI

@Suite("Colours")
struct ColorTests {
    @Test("RGB maps to the nearest xterm-256 cube or grey entry",
          arguments: [((255, 0, 0), 196), ((0, 0, 0), 16), ((255, 255, 255), 231), ((128, 128, 128), 244),
                      ((95, 135, 175), 67), ((128, 0, 0), 88), ((8, 8, 8), 232), ((238, 238, 238), 255),
                      ((250, 3, 3), 196), ((30, 30, 30), 234)] as [((UInt8, UInt8, UInt8), Int)])
    func xterm256Mapping(rgb: (UInt8, UInt8, UInt8), index: Int) {
        let color = TerminalRGB(red: rgb.0, green: rgb.1, blue: rgb.2)
        #expect(Int(XTerm256.index(nearest: color)) == index)
    }

    @Test("Every palette entry from 16 up maps back to itself")
    func paletteRoundTrip() {
        for index in UInt8(16)...UInt8(255) {
            #expect(XTerm256.index(nearest: XTerm256.color(at: index)) == index)
        }
    }

    @Test("COLORTERM=truecolor or 24bit gives 24-bit colour; a 256color TERM the palette fallback")
    func detection() throws {
        #expect(try TerminalColorMode.detect(environment: ["TERM": "xterm", "COLORTERM": "truecolor"], isTerminal: true) == .trueColor)
        #expect(try TerminalColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "24bit"], isTerminal: true) == .trueColor)
        #expect(try TerminalColorMode.detect(environment: ["TERM": "tmux-256color"], isTerminal: true) == .palette256)
    }

    @Test("No terminal, no TERM, TERM=dumb or too few colours: an error naming the reason")
    func detectionErrors() {
        #expect(throws: TerminalError.notATerminal(stream: "output")) {
            try TerminalColorMode.detect(environment: ["TERM": "xterm-256color"], isTerminal: false)
        }
        #expect(throws: TerminalError.noTermVariable) { try TerminalColorMode.detect(environment: [:], isTerminal: true) }
        #expect(throws: TerminalError.dumbTerminal) {
            try TerminalColorMode.detect(environment: ["TERM": "dumb", "COLORTERM": "truecolor"], isTerminal: true)
        }
        #expect(throws: TerminalError.tooFewColors(term: "vt100")) {
            try TerminalColorMode.detect(environment: ["TERM": "vt100"], isTerminal: true)
        }
        #expect(TerminalError.dumbTerminal.description.contains("TERM=dumb"))
        #expect(TerminalError.notATerminal(stream: "output").description.contains("not a terminal"))
    }

    @Test("Labels are black on light blocks and white on dark ones")
    func labelContrast() {
        #expect(TerminalRGB.white.contrastingText == .black)
        #expect(TerminalRGB.black.contrastingText == .white)
        #expect(TerminalRGB(red: 128, green: 128, blue: 128).contrastingText == .black)
        #expect(TerminalRGB(red: 0, green: 0, blue: 255).contrastingText == .white)
        #expect(TerminalRGB(red: 255, green: 255, blue: 0).contrastingText == .black)
        for color in [TerminalRGB.white, .black, TerminalRGB(red: 128, green: 128, blue: 128), TerminalRGB(red: 200, green: 0, blue: 0)] {
            #expect(color.contrastRatio(with: color.contrastingText) >= 3.9)
        }
    }
}
