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

    /// The samples of the band with low-pass edge `lowPass` (nil: the
    /// high-pass and notch only, as zero training scores); nil when the
    /// history keeps no such band.
    func filtered(lowPass: Double?) -> [[Double]]? {
        bands.firstIndex(of: lowPass).map { bandFiltered[$0] }
    }

    /// Samples `range` of every band, by low-pass edge: a trial as each
    /// live filter gave it.
    func bandSamples(_ range: Range<Int>) -> [Double?: [[Double]]] {
        var out: [Double?: [[Double]]] = [:]
        for (b, band) in bands.enumerated() { out[band] = bandFiltered[b].map { Array($0[range]) } }
        return out
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

    /// Replaces every band's samples (bands × channels × samples, as many
    /// as kept): the kept raw EEG filtered again.
    mutating func replaceFiltered(_ filtered: [[[Double]]]) {
        precondition(filtered.count == bands.count && filtered.allSatisfy { $0.count == channels && $0.allSatisfy { $0.count == times.count } },
                     "one band of every channel's kept samples")
        bandFiltered = filtered
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
