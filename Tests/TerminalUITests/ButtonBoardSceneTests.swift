import NoiseTagging
import Testing
import UtopiaProtocol
@testable import TerminalUI

/// A terminal app with more than one unit: the board made without buttons
/// shows, and takes keys for, whatever view is on top of the stack.
@Suite("The button board follows the unit stack")
struct ButtonBoardSceneTests {
    private final class Menu: NoiseTagDelegate {
        let view = NoiseTagView()
        let buttons: [NoiseTagButton]
        init(_ labels: [String]) {
            buttons = labels.enumerated().map { index, label in
                NoiseTagButton(identifier: label, label: label, frame: NoiseTagRect(x: Double(index * 8), y: 0, width: 7, height: 3))
            }
            for button in buttons { view.add(button) }
        }
    }

    /// The labels drawn on `screen`, in reading order.
    private static func labels(on screen: TerminalScreen, among candidates: [String]) -> [String] {
        var found: [String] = []
        for row in 1..<(screen.size.rows - 1) {
            for column in 0..<screen.size.columns {
                let character = String(screen[row: row, column: column].character)
                if candidates.contains(character), !found.contains(character) { found.append(character) }
            }
        }
        return found
    }

    @Test("a push shows the new unit's buttons and a pop the old ones again; keys press what is shown")
    func followsPushAndPop() {
        let controller = NoiseTagController(clock: VirtualClock(), decoderLink: InMemoryDecoderLink())
        let main = Menu(["A", "B"]), sub = Menu(["C", "D", "E"])
        controller.push(view: main.view, forNoiseTaggingWithDelegate: main)
        let scene = ButtonBoardScene(controller: controller, footer: TerminalFooter(keys: []))
        let screen = TerminalScreen(size: TerminalSize(columns: 40, rows: 8), colorMode: .trueColor)
        let all = ["A", "B", "C", "D", "E"]
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: all) == ["A", "B"])

        controller.push(view: sub.view, forNoiseTaggingWithDelegate: sub)
        #expect(scene.minimumSize.columns == 3 * 8 - 1 + 2)
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: all) == ["C", "D", "E"])
        var pressed: [String] = []
        controller.events.subscribe { if case .press(let press) = $0.kind { pressed.append(press.control) } }
        scene.handle(key: UInt8(ascii: "A"))
        scene.handle(key: UInt8(ascii: "D"))
        #expect(pressed == ["D"], "only the shown unit's buttons are pressed by their keys")

        controller.pop()
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: all) == ["A", "B"])
    }

    @Test("a board given its buttons keeps drawing them after a push")
    func givenButtonsStay() {
        let controller = NoiseTagController(clock: VirtualClock(), decoderLink: InMemoryDecoderLink())
        let main = Menu(["A", "B"]), sub = Menu(["C"])
        controller.push(view: main.view, forNoiseTaggingWithDelegate: main)
        let scene = ButtonBoardScene(controller: controller, buttons: main.buttons, footer: TerminalFooter(keys: []))
        controller.push(view: sub.view, forNoiseTaggingWithDelegate: sub)
        let screen = TerminalScreen(size: scene.minimumSize, colorMode: .trueColor)
        scene.draw(on: screen, missedFrames: 0)
        #expect(Self.labels(on: screen, among: ["A", "B", "C"]) == ["A", "B"])
    }
}
