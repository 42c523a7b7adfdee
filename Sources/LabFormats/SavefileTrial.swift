/// One calibration trial of a MindAffect savefile: the STIMULUSEVENTs from a
/// NEWTARGET (in `Calibration.supervised` mode) to the next NEWTARGET or
/// MODECHANGE. Object 0 mirrors the cued target.
struct SavefileTrial: Sendable {
    /// Each event's time, seconds on the unwrapped server clock.
    var times: [Double] = []
    /// Each object's state at each event (an object missing from an event
    /// keeps its previous state).
    var frames: [Int: [UInt8]] = [:]

    /// Adds one STIMULUSEVENT.
    mutating func append(time: Double, states: [(object: Int, state: UInt8)]) {
        let index = times.count
        times.append(time)
        for (object, state) in states {
            var row = frames[object] ?? []
            let previous = row.last ?? 0
            while row.count < index { row.append(previous) }
            row.append(state > 0 ? 1 : 0)
            frames[object] = row
        }
        for (object, row) in frames where row.count <= index {
            frames[object] = row + [row.last ?? 0]
        }
    }

    /// The objects shown, cue mirror (0) excluded, in id order.
    var objects: [Int] { frames.keys.filter { $0 != 0 }.sorted() }
}

/// The classes of a set of trials: distinct code sequences (by frame), where
/// two sequences differing in at most 2 % of their frames (at least 2) are
/// the same class, as `LiveDecoder` groups them live: frames flipped, or a
/// STIMULUSEVENT line lost or written twice mid-trial, which shifts every
/// later frame by one (frame by frame, half of them would differ). The
/// first frames must line up: codes that are shifts of one another (an
/// m-sequence codebook) stay apart.
struct StimulusClasses: Sendable {
    /// One representative frame sequence per class.
    var codes: [[UInt8]] = []
    /// Frames compared (the shortest trial's event count).
    let frames: Int

    /// Classes over the first `frames` frames.
    init(frames: Int) { self.frames = frames }

    /// Frames at the start in which no frame may be lost or added.
    var aligned: Int { min(8, frames / 10) }

    /// The class of `sequence` (its first ``frames`` frames), added when new:
    /// the nearest frame by frame, else the nearest with frames lost or added.
    mutating func classify(_ sequence: [UInt8]) -> Int {
        let code = Array(sequence.prefix(frames))
        let tolerance = max(2, frames / 50)
        if let best = codes.indices.min(by: { distance(codes[$0], code) < distance(codes[$1], code) }),
           distance(codes[best], code) <= tolerance {
            return best
        }
        let shifted = codes.indices.map { Self.editDistance(codes[$0], code, atMost: tolerance, aligned: aligned) }
        if let best = shifted.indices.min(by: { shifted[$0] < shifted[$1] }), shifted[best] <= tolerance { return best }
        codes.append(code)
        return codes.count - 1
    }

    private func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// The fewest frames flipped, lost or added that turn `a` into `b`, none
    /// lost or added in the first `aligned` frames, and what one runs on past
    /// the other's end free (a sequence that lost a frame ends a frame later
    /// in the other); `limit + 1` once past `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int, aligned: Int = 0) -> Int {
        let band = max(0, limit), over = band + 1
        guard !a.isEmpty, !b.isEmpty else { return min(over, abs(a.count - b.count) > band ? over : 0) }
        // Rows over a, columns over b; only cells with |i − j| ≤ band.
        var previous = [Int](repeating: over, count: b.count + 1)
        var current = previous
        previous[0] = 0
        var best = over
        for i in 1...a.count {
            let low = max(0, i - band), high = min(b.count, i + band)
            if low > high { break }
            for j in max(0, low - 1)...min(b.count, high + 1) { current[j] = over }
            for j in max(1, low)...max(1, high) where j <= high {
                var cost = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                if i > aligned, j > aligned { cost = min(cost, previous[j] + 1, current[j - 1] + 1) }
                current[j] = min(over, cost)
            }
            if high == b.count { best = min(best, current[b.count]) }
            if i == a.count { best = min(best, current[max(1, low)...high].min() ?? over) }
            swap(&previous, &current)
        }
        return min(best, over)
    }
}
