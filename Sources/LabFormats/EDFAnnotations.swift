/// The time-stamped annotation lists (TALs) of one "EDF Annotations" signal
/// in one data record: `+onset[\x15duration]\x14text\x14[text\x14…]\x00`,
/// TAL after TAL, the rest of the record padded with NULs. The first TAL of
/// the first annotation signal of every record is the record's time-keeping
/// TAL: its first text is empty and its onset is the record's start.
struct EDFAnnotations {
    /// One annotation text with its timing (seconds from the file's start time).
    struct Entry: Equatable {
        var onset: Double
        var duration: Double?
        var text: String
    }

    /// The record's start (the time-keeping TAL's onset), nil when the bytes hold none.
    var recordOnset: Double?
    /// The annotations, time-keeping TAL's empty text left out.
    var entries: [Entry] = []
    /// TALs that could not be read, one line each.
    var problems: [String] = []

    /// The TALs in `bytes`; `timeKeeping` when these are the first
    /// annotation signal's bytes, whose first TAL gives the record onset.
    init(_ bytes: ArraySlice<UInt8>, timeKeeping: Bool) {
        var i = bytes.startIndex
        var first = true
        while i < bytes.endIndex {
            if bytes[i] == 0 { i += 1; continue }
            let end = bytes[i...].firstIndex(of: 0) ?? bytes.endIndex
            let tal = bytes[i..<end]
            i = end
            let parts = tal.split(separator: 0x14, omittingEmptySubsequences: false)
            guard let head = parts.first else { continue }
            let timing = head.split(separator: 0x15, omittingEmptySubsequences: false)
            let onsetText = HeaderText.decode(timing[0])
            guard let sign = onsetText.first, sign == "+" || sign == "-", let onset = Double(onsetText), onset.isFinite else {
                problems.append("a TAL's onset is not a signed number: \"\(onsetText.prefix(40))\"")
                first = false
                continue
            }
            var duration: Double?
            if timing.count > 1 {
                let text = HeaderText.decode(timing[1])
                if let d = Double(text), d.isFinite, d >= 0 { duration = d } else if !text.isEmpty {
                    problems.append("annotation at \(onset) s has an unreadable duration \"\(text.prefix(40))\"")
                }
            }
            var texts = parts.dropFirst().map { HeaderText.decode($0) }
            if texts.last == "" { texts.removeLast() }  // the closing \x14
            if first && timeKeeping {
                recordOnset = onset
                if texts.first == "" { texts.removeFirst() }
            }
            first = false
            for text in texts where !text.isEmpty {
                entries.append(Entry(onset: onset, duration: duration, text: text))
            }
        }
    }
}
