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
/// two sequences differing in at most 2 % of their frames (a dropped or
/// repeated frame) are the same class, as `LiveDecoder` groups them live.
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
        let tolerance = max(1, frames / 50)
        if let best = codes.indices.min(by: { distance(codes[$0], code) < distance(codes[$1], code) }),
           distance(codes[best], code) <= tolerance {
            return best
        }
        codes.append(code)
        return codes.count - 1
    }

    private func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }
}
