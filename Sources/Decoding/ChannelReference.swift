/// How the channels are re-referenced before filtering: as recorded, or to
/// their common average (each sample minus the mean over channels at that
/// instant), which takes out what every electrode shares with the
/// reference electrode (a noisy or badly attached reference, mains picked
/// up by it). The reconvolution model's spatial filter can undo any
/// re-reference but the average's lost dimension, so on clean data the two
/// decode alike; the average helps where one electrode's noise reaches
/// every channel.
public enum ChannelReference: String, Sendable, Codable, CaseIterable {
    /// The channels as the amplifier gave them.
    case asRecorded = "none"
    /// Each sample minus the mean over channels at that instant.
    case commonAverage = "average"

    /// `block` (channels × samples) re-referenced.
    public func apply(to block: [[Double]]) -> [[Double]] {
        guard self == .commonAverage, block.count > 1, let n = block.first?.count else { return block }
        var mean = [Double](repeating: 0, count: n)
        for row in block { for i in 0..<min(n, row.count) { mean[i] += row[i] } }
        let scale = 1 / Double(block.count)
        return block.map { row in row.indices.map { row[$0] - mean[$0] * scale } }
    }
}
