import NoiseTagging
import UtopiaProtocol

/// A stand-in decoder for the example: it "knows" which button the simulated
/// user looks at and grows more certain of it as the flicker goes on, with
/// some seeded noise, as a real decoder's evidence accumulates.
final class SimulatedDecoder {
    private let link: InMemoryDecoderLink
    private let clock: VirtualClock
    private var trialStart: Double?
    private var random: UInt64
    /// The object ID the simulated user attends to.
    var attended: Int = 1
    /// Seconds of flicker after which the decoder is 95 % sure.
    var secondsToConfidence = 2.0

    init(link: InMemoryDecoderLink, clock: VirtualClock, seed: UInt64) {
        self.link = link
        self.clock = clock
        self.random = seed
        link.onSend = { [unowned self] message in self.hear(message) }
    }

    private func hear(_ message: UtopiaMessage) {
        switch message {
        case .newTarget: trialStart = clock.now
        case .selection: trialStart = nil
        case .modeChange(let change):
            link.deliver(.modeChange(change))   // confirm, as a real decoder does
        default: break
        }
    }

    /// Called every few frames: sends a prediction for the attended object.
    func predict() {
        guard let start = trialStart else { return }
        let elapsed = clock.now - start
        let evidence = min(elapsed / secondsToConfidence, 1.2)
        let noise = Double(next() % 1000) / 1000 * 0.1
        let perr = max(0.001, 1 - 0.95 * evidence - noise + 0.05)
        link.deliver(.predictedTargetProb(PredictedTargetProb(
            timestamp: clock.utopiaTimestamp, objID: Int8(attended), errorProbability: Float(min(perr, 1)))))
    }

    private func next() -> UInt64 {
        random = random &* 6364136223846793005 &+ 1442695040888963407
        return random >> 33
    }
}
