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
/// two sequences that differ by at most 2 % of their frames (at least 2) are
/// the same class: frames flipped, or dropped or repeated (a lost
/// STIMULUSEVENT line shifts every later frame by one, which frame by frame
/// would differ in half of them), as `LiveDecoder` groups them live.
struct StimulusClasses: Sendable {
    /// One representative frame sequence per class.
    var codes: [[UInt8]] = []
    /// Frames compared (the shortest trial's event count).
    let frames: Int

    /// Classes over the first `frames` frames.
    init(frames: Int) { self.frames = frames }

    /// The class of `sequence` (its first ``frames`` frames), added when new.
    mutating func classify(_ sequence: [UInt8]) -> Int {
        let code = Array(sequence.prefix(frames))
        let tolerance = max(2, frames / 50)
        var best: (k: Int, cost: Int)?
        for (k, known) in codes.enumerated() {
            let cost = Self.editDistance(known, code, atMost: min(best?.cost ?? .max, tolerance + 1) - 1)
            if cost <= tolerance, cost < (best?.cost ?? .max) { best = (k, cost) }
        }
        if let best { return best.k }
        codes.append(code)
        return codes.count - 1
    }

    /// The fewest frames flipped, dropped or repeated that turn `a` into `b`,
    /// where what one runs on past the other's end is free (a sequence that
    /// lost a frame ends one frame later in the other); `limit + 1` once it
    /// exceeds `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int {
        let band = max(0, limit)
        let over = band + 1
        // Rows over a, columns over b, only |i − j| ≤ band.
        var previous = [Int](repeating: over, count: b.count + 1)
        var current = previous
        for j in 0...min(b.count, band) { previous[j] = j }
        var best = a.isEmpty || b.isEmpty ? 0 : over
        if b.count <= band { best = min(best, previous[b.count]) }
        if a.isEmpty { return min(best, over) }
        for i in 1...a.count {
            let low = max(0, i - band), high = min(b.count, i + band)
            if low > high { break }
            for j in max(0, low - 1)...min(b.count, high + 1) { current[j] = over }
            if low == 0 { current[0] = i }
            for j in max(1, low)...max(1, high) where j <= high {
                let flip = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(over, flip, previous[j] + 1, current[j - 1] + 1)
            }
            if high == b.count { best = min(best, current[b.count]) }
            if i == a.count { best = min(best, current[low...high].min() ?? over) }
            swap(&previous, &current)
        }
        return min(best, over)
    }
}
