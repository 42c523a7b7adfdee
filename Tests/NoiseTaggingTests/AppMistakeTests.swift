import Foundation
import Testing
import UtopiaProtocol
@testable import NoiseTagging

/// Plausible mistakes of an integrating app: each is survived and said, none
/// traps the process or leaves the decoder told something nobody sees.
@Suite("An app's mistakes")
struct AppMistakeTests {
    private func stimulusEvents(_ h: EngineHarness) -> [StimulusEvent] {
        h.link.sent.compactMap { if case .stimulusEvent(let e) = $0 { return e } else { return nil } }
    }

    @Test("a touch between trials on a control whose custom ID is out of range is a press with no object, not a trap")
    func touchOnAnOutOfRangeID() {
        let h = EngineHarness()
        h.buttons[0].noiseTagging.customUtopiaObjectID = 300
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        #expect(h.controller.touchPress(h.buttons[0]))
        #expect(h.presses.map(\.control) == ["b1"] && h.presses.first?.objectID == nil)
        #expect(!h.link.sent.contains { if case .selection = $0 { return true } else { return false } })
    }

    @Test("a refused touch names the call the app made")
    func refusedTouchNamesTouchPress() {
        let h = EngineHarness()
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        #expect(!h.controller.touchPress(NoiseTagButton(identifier: "elsewhere")))
        #expect(h.events.contains { if case .refused("touchPress(_:)", _) = $0.kind { return true } else { return false } })
    }

    @Test("controls with object IDs above 127, which no prediction can name, are said at the update")
    func unpredictableIDsAreNoticed() {
        let h = EngineHarness()
        h.buttons[2].noiseTagging.customUtopiaObjectID = 200
        h.controller.push(view: h.view, forNoiseTaggingWithDelegate: h.delegate)
        let notices = h.events.compactMap { if case .notice(let text) = $0.kind { return text } else { return nil } }
        #expect(notices.contains { $0.hasPrefix("1 control(s) of the current unit get an object ID above 127 ('b3': 200)") })
        let plain = EngineHarness()
        plain.controller.push(view: plain.view, forNoiseTaggingWithDelegate: plain.delegate)
        #expect(!plain.events.contains { if case .notice(let text) = $0.kind { return text.contains("above 127") } else { return false } })
    }

    @Test("a control added twice is in its view once: it flickers one code")
    func aControlAddedTwiceMoves() {
        let h = EngineHarness(buttons: 2)
        h.view.add(h.buttons[0])
        #expect(h.view.allControls.map(\.noiseTagName) == ["b2", "b1"])
        let other = NoiseTagView()
        h.view.addSubview(other)
        other.add(h.buttons[1])
        #expect(h.view.controls.map(\.noiseTagName) == ["b1"] && h.buttons[1].noiseTagging.container === other)
        h.start(in: .test)
        h.run(for: 0.5)
        #expect(stimulusEvents(h).last?.objIDs == [1, 2])
    }

    @Test("a view added into itself or below itself is left where it was; a view moves between containers")
    func viewTreesStayTrees() {
        let root = NoiseTagView(), child = NoiseTagView(), grandchild = NoiseTagView()
        root.addSubview(child)
        child.addSubview(grandchild)
        root.addSubview(root)
        grandchild.addSubview(root)
        #expect(root.superview == nil && root.subviews.count == 1 && grandchild.subviews.isEmpty)
        grandchild.add(NoiseTagButton(identifier: "deep"))
        #expect(root.allControls.map(\.noiseTagName) == ["deep"] && !grandchild.isHiddenOrInHiddenContainer)
        root.addSubview(grandchild)
        #expect(child.subviews.isEmpty && root.subviews.count == 2 && grandchild.superview === root)
    }
}
