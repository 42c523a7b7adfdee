/// The last stretch of EEG the live decoder received: each sample's wire
/// time, raw (for calibration datasets) and preprocessed (for scoring).
/// Old samples are dropped in batches.
struct SampleHistory: Sendable {
    let channels: Int
    private(set) var times: [Double] = []
    private(set) var raw: [[Double]]
    private(set) var filtered: [[Double]]

    init(channels: Int) {
        self.channels = channels
        raw = [[Double]](repeating: [], count: channels)
        filtered = raw
    }

    var latestTime: Double? { times.last }
    var count: Int { times.count }

    mutating func append(times newTimes: [Double], raw newRaw: [[Double]], filtered newFiltered: [[Double]]) {
        times += newTimes
        for c in 0..<channels {
            raw[c] += newRaw[c]
            filtered[c] += newFiltered[c]
        }
    }

    /// Drops samples older than `time`, once at least `batch` of them are due.
    mutating func forget(before time: Double, batch: Int = 2_000) {
        let cut = firstIndex(atOrAfter: time)
        guard cut >= batch else { return }
        times.removeFirst(cut)
        for c in 0..<channels {
            raw[c].removeFirst(cut)
            filtered[c].removeFirst(cut)
        }
    }

    /// The index of the first sample at or after `time` (count when none).
    func firstIndex(atOrAfter time: Double) -> Int {
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of the first sample after `time` (count when none).
    func firstIndex(after time: Double) -> Int {
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
