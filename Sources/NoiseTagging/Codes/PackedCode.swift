/// A code's on/off pattern packed 64 states to a word, for fast correlation.
struct PackedCode {
    private(set) var words: [UInt64]

    /// Packs `states` rotated to start at `shift` (bit set = state non-zero).
    init(states: [UInt8], shift: Int) {
        let n = states.count
        words = Array(repeating: 0, count: (n + 63) / 64)
        var source = shift % max(n, 1)
        for t in 0..<n {
            if states[source] != 0 { words[t >> 6] |= 1 << UInt64(t & 63) }
            source += 1
            if source == n { source = 0 }
        }
    }

    /// The number of positions where the two patterns differ.
    func disagreements(with other: PackedCode) -> Int {
        var total = 0
        for index in words.indices { total += (words[index] ^ other.words[index]).nonzeroBitCount }
        return total
    }
}
