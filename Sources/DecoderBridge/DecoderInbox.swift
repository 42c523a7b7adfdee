import DequeModule
import NoiseTagging
import UtopiaProtocol

/// Messages from the decoder waiting for the engine's next tick. Bounded:
/// when full, the oldest prediction (PREDICTEDTARGETPROB or …DIST) makes room
/// and is counted; with no prediction queued, the oldest message does.
/// Not locked itself: ``ZeroMQDecoderLink`` keeps it inside its `Mutex`.
struct DecoderInbox {
    let capacity: Int
    private(set) var messages: Deque<WireMessage> = []
    private(set) var droppedPredictions = 0
    private(set) var droppedOther = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    mutating func append(_ message: WireMessage) {
        if messages.count >= capacity {
            if let oldest = messages.firstIndex(where: Self.isPrediction) {
                messages.remove(at: oldest)
                droppedPredictions += 1
            } else {
                messages.removeFirst()
                droppedOther += 1
            }
        }
        messages.append(message)
    }

    mutating func drain() -> [WireMessage] {
        defer { messages.removeAll(keepingCapacity: true) }
        return Array(messages)
    }

    static func isPrediction(_ message: WireMessage) -> Bool {
        switch message.message {
        case .predictedTargetProb, .predictedTargetDist: return true
        default: return false
        }
    }
}
