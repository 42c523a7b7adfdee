/// Turns stimulus sequences (state per sample) into event onsets, with a
/// fixed set of events learned from the calibration stimulus so that any
/// later code, seen or not, maps onto the same events.
public struct EventEncoder: Sendable, Equatable {
    /// The event definition.
    public let definition: EventDefinition
    /// Run lengths (samples) that name the duration events; empty for edges.
    public let durations: [Int]

    /// An encoder whose events cover the runs found in `codes`.
    public init(definition: EventDefinition, fitting codes: [[UInt8]]) {
        self.definition = definition
        guard definition == .duration else { durations = []; return }
        let lengths = Set(codes.flatMap { Self.runs(of: $0).map(\.length) }).sorted()
        var groups: [[Int]] = []
        for length in lengths {
            if let last = groups.last?.first, length - last <= 1 { groups[groups.count - 1].append(length) }
            else { groups.append([length]) }
        }
        durations = groups.map { g in g.reduce(0, +) / g.count }
    }

    /// Number of events.
    public var eventCount: Int { definition == .duration ? max(1, durations.count) : 2 }

    /// Names of the events, for reports.
    public var labels: [String] {
        definition == .duration ? durations.map { "\($0) samples" } : ["rise", "fall"]
    }

    /// For each event, the sample indices where it occurs in `code`.
    public func onsets(of code: [UInt8]) -> [[Int]] {
        var out = [[Int]](repeating: [], count: eventCount)
        switch definition {
        case .risingFallingEdges:
            var previous = false
            for (i, v) in code.enumerated() {
                let on = v > 0
                if on && !previous { out[0].append(i) }
                if !on && previous { out[1].append(i) }
                previous = on
            }
        case .duration:
            guard !durations.isEmpty else { return out }
            for run in Self.runs(of: code) {
                let nearest = durations.indices.min { abs(durations[$0] - run.length) < abs(durations[$1] - run.length) }!
                out[nearest].append(run.start)
            }
        }
        return out
    }

    /// Runs of "on" samples: start and length.
    static func runs(of code: [UInt8]) -> [(start: Int, length: Int)] {
        var out: [(Int, Int)] = []
        var start = -1
        for (i, v) in code.enumerated() {
            if v > 0, start < 0 { start = i }
            if v == 0, start >= 0 { out.append((start, i - start)); start = -1 }
        }
        if start >= 0 { out.append((start, code.count - start)) }
        return out
    }
}
