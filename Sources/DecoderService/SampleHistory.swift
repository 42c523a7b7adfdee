/// The last stretch of EEG the live decoder received: each sample's wire
/// time, raw (for calibration datasets) and preprocessed in each band (for
/// calibration and scoring). Old samples are dropped in batches.
struct SampleHistory: Sendable {
    let channels: Int
    /// The bands' low-pass edges (nil: none), in the order of ``bands``.
    let bands: [Double?]
    private(set) var times: [Double] = []
    private(set) var raw: [[Double]]
    /// Per band, channels × samples.
    private(set) var bandFiltered: [[[Double]]]

    init(channels: Int, bands: [Double?] = [nil]) {
        precondition(!bands.isEmpty, "one band at least")
        self.channels = channels
        self.bands = bands
        raw = [[Double]](repeating: [], count: channels)
        bandFiltered = Array(repeating: raw, count: bands.count)
    }

    /// The first band's samples (the high-pass and notch only, as zero
    /// training and a model fitted without a low-pass score).
    var filtered: [[Double]] { bandFiltered[0] }

    /// The samples of the band with low-pass edge `lowPass`; the first
    /// band's when there is no such band.
    func filtered(lowPass: Double?) -> [[Double]] {
        bandFiltered[bands.firstIndex(of: lowPass) ?? 0]
    }

    var latestTime: Double? { times.last }
    var count: Int { times.count }

    /// Adds samples: their times, raw, and per band filtered (bands × channels × samples).
    mutating func append(times newTimes: [Double], raw newRaw: [[Double]], filtered newFiltered: [[[Double]]]) {
        times += newTimes
        for c in 0..<channels {
            raw[c] += newRaw[c]
            for b in bands.indices { bandFiltered[b][c] += newFiltered[b][c] }
        }
    }

    /// Drops samples older than `time`, once at least `batch` of them are due.
    mutating func forget(before time: Double, batch: Int = 2_000) {
        let cut = firstIndex(atOrAfter: time)
        guard cut >= batch else { return }
        times.removeFirst(cut)
        for c in 0..<channels {
            raw[c].removeFirst(cut)
            for b in bands.indices { bandFiltered[b][c].removeFirst(cut) }
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
