import NoiseTagging

/// The benchmark's unit: a view of `count` plain buttons and a delegate
/// that gives each one an action, as an app would.
final class BenchUnit: NoiseTagDelegate {
    let view = NoiseTagView()
    let buttons: [NoiseTagButton]
    private(set) var actionsRun = 0

    init(count: Int) {
        buttons = (0..<count).map { NoiseTagButton(identifier: "b\($0)") }
        for button in buttons { view.add(button) }
    }

    func startNoiseTagControlOn(noiseTaggingView view: NoiseTagView) {
        for button in buttons {
            try? button.noiseTagging.addAction(timing: 1) { [unowned self] in self.actionsRun += 1 }
        }
    }
}
