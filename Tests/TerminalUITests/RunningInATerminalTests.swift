import Foundation
import Testing
@testable import TerminalUI
import DecoderBridge
import NoiseTagging

/// The article RunningInATerminal.md shows one whole program; it is
/// compiled here, word for word between the markers (its imports above),
/// and the test checks the article still says exactly this. It is not run:
/// it needs a terminal and a decoder.
@Suite struct RunningInATerminalTests {
    @Test func theArticlesProgramIsTheOneCompiledHere() throws {
        let here = try String(contentsOfFile: #filePath, encoding: .utf8)
        let compiled = try #require(here.components(separatedBy: "// BEGIN ARTICLE\n").last?.components(separatedBy: "\n// END ARTICLE").first)
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TerminalUI/TerminalUI.docc/RunningInATerminal.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let program = block.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
            .joined(separator: "\n").trimmingCharacters(in: .newlines)
        #expect(program == compiled, "the article's program differs from the one compiled in this file")
    }
}

/// The article's program; never called.
func runningInATerminalProgram() throws {
// BEGIN ARTICLE
final class Choices: NoiseTagDelegate {
    let buttons = ["Lights", "Nurse", "Radio"].enumerated().map { index, name in
        NoiseTagButton(identifier: name, label: String(name.prefix(1)),
                       frame: NoiseTagRect(x: Double(index) * 10, y: 0, width: 8, height: 3))
    }
    var chosen: String?

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for button in buttons {
            try? button.noiseTagging.addAction(timing: 1) { [unowned self] in chosen = button.noiseTagging.identifier }
        }
    }
}

let link = try BridgeLinks.connect(endpoint: "", settings: NoiseTagging.settings)
NoiseTagging.decoderLink = link
let choices = Choices()
let view = NoiseTagView()
choices.buttons.forEach(view.add)
NoiseTagging.push(view: view, forNoiseTaggingWithDelegate: choices)
NoiseTagging.trialsAreRunning = true

let status = try TerminalSession.run { session in
    let runner = TerminalRunner(session: session, loop: FrameLoop(controller: NoiseTagging, waiter: RealTimeFrameWaiter()))
    let scene = ButtonBoardScene(controller: NoiseTagging, buttons: choices.buttons,
                                 footer: TerminalFooter(keys: [("space", "trials on/off"), ("q", "quit")]))
    return runner.run(scene, shouldStop: { choices.chosen != nil })
}
NoiseTagging.trialsAreRunning = false
NoiseTagging.stopRecording()
link.close()
print(choices.chosen.map { "chosen: \($0)" } ?? "nothing chosen (exit status \(status))")
// END ARTICLE
}
