import Synchronization

/// Where fit threads leave their outcomes for the decoder's thread. A class,
/// so that a fit still running when the server stops holds it alive and
/// not the server.
final class FitMailbox: Sendable {
    private let outcomes = Mutex<[CalibrationOutcome]>([])

    func post(_ outcome: CalibrationOutcome) { outcomes.withLock { $0.append(outcome) } }

    func take() -> [CalibrationOutcome] {
        outcomes.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
