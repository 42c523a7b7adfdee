import NoiseTagging

/// A square-ish grid of labelled buttons ("1", "2", …) with a delegate that
/// records presses: the demo's unit, shared by the headless and terminal demos.
final class ButtonGrid: NoiseTagDelegate {
    let view = NoiseTagView()
    let buttons: [NoiseTagButton]
    let columns: Int
    private(set) var pressed: [String] = []

    init(count: Int, cellWidth: Double = 8, cellHeight: Double = 3) {
        let columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        self.columns = columns
        buttons = (0..<count).map { index in
            let label = String(index + 1)
            let frame = NoiseTagRect(x: Double(index % columns) * (cellWidth + 1),
                                     y: Double(index / columns) * (cellHeight + 1),
                                     width: cellWidth, height: cellHeight)
            return NoiseTagButton(identifier: label, label: label, frame: frame)
        }
        for button in buttons { view.add(button) }
    }

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for button in buttons {
            let label = button.label
            try? button.noiseTagging.addAction(timing: 1) { [unowned self] in self.pressed.append(label) }
        }
    }

    func contextDescription() -> String? { "demo grid of \(buttons.count) buttons" }
}
