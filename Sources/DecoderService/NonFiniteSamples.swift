/// The samples an acquisition client sent as NaN or ±infinity, by channel
/// and stream-wide sample index. ``AcquisitionStream`` repairs them (the
/// channel's last finite value) so the decoder can filter and fit; a signal
/// view should show them as they came, as gaps. Appended in stream order,
/// so the entries stay sorted by index.
struct NonFiniteSamples: Sendable {
    private var indices: [Int] = []
    private var channels: [Int] = []
    private var values: [Double] = []

    var isEmpty: Bool { indices.isEmpty }

    /// Records the non-finite samples of `block` (channels × samples as
    /// received) whose first sample has stream index `first`.
    mutating func record(_ block: [[Double]], first: Int) {
        let length = block.map(\.count).max() ?? 0
        for i in 0..<length {
            for (c, channel) in block.enumerated() where i < channel.count && !channel[i].isFinite {
                indices.append(first + i)
                channels.append(c)
                values.append(channel[i])
            }
        }
    }

    /// Drops the entries of samples before stream index `first`.
    mutating func forget(before first: Int) {
        let cut = lowerBound(first)
        guard cut > 0 else { return }
        indices.removeFirst(cut)
        channels.removeFirst(cut)
        values.removeFirst(cut)
    }

    /// Puts the recorded values back into `samples`, channel `channel`'s
    /// samples from stream index `first` on.
    func restore(into samples: inout [Double], channel: Int, first: Int) {
        var k = lowerBound(first)
        while k < indices.count, indices[k] < first + samples.count {
            if channels[k] == channel { samples[indices[k] - first] = values[k] }
            k += 1
        }
    }

    /// The first entry at or after stream index `index`.
    private func lowerBound(_ index: Int) -> Int {
        var low = 0, high = indices.count
        while low < high {
            let mid = (low + high) / 2
            if indices[mid] < index { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
