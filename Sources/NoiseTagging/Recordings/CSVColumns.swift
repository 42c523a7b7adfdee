/// Where a recording's CSV file holds the columns a reader needs, found by
/// their names in its header row (so that reordered or added columns read
/// right), and how many cells a row has.
struct CSVColumns {
    /// The position of each needed column, in the order asked for.
    var positions: [Int]
    /// Cells in the header row: every row has as many.
    var width: Int

    subscript(_ k: Int) -> Int { positions[k] }
}

/// The rows of a CSV file a reader could not read: how many, and the
/// first few line numbers (the header is line 1).
struct BadRows {
    /// The line number of the row being read.
    var line = 1
    /// Rows that could not be read.
    private(set) var count = 0
    /// Their first five line numbers.
    private(set) var lines: [Int] = []

    /// Counts the row being read as unreadable.
    mutating func note() {
        count += 1
        if lines.count < 5 { lines.append(line) }
    }
}

extension Array {
    /// The element at `index`, nil when out of range.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
