/// A code as the EEG's sample clock saw it: one stimulus state per sample.
/// The same code shown in two trials differs by a sample at some of its
/// edges, since the display's frames fall at other phases against the
/// samples; two different codes differ in about half of their samples. So
/// two samplings count as one code when they differ in at most a tenth of
/// their samples: the rule by which a live calibration and an imported
/// stimulus file make their classes, and a live trial finds the
/// calibration code it shows.
public enum SampledCode {
    /// The samples in which `shown` differs from the start of `code` (over
    /// `shown`'s length), counted up to the first past `limit`.
    public static func differences(_ shown: ArraySlice<UInt8>, _ code: [UInt8], limit: Int = .max) -> Int {
        var count = 0
        for (a, b) in zip(shown, code) where a != b {
            count += 1
            if count > limit { break }
        }
        return count + max(0, shown.count - code.count)
    }

    /// The most samples in which two samplings of `count` samples of one
    /// code may differ: a tenth.
    public static func allowedDifferences(in count: Int) -> Int { count / 10 }

    /// True when `row` and `other` are one code: they differ in at most a
    /// tenth of `row`'s samples.
    public static func same(_ row: [UInt8], _ other: [UInt8]) -> Bool {
        let allowed = allowedDifferences(in: row.count)
        return differences(row[...], other, limit: allowed) <= allowed
    }

    /// The index of the first of `rows` that is the same code as `row`.
    public static func firstMatch(of row: [UInt8], in rows: [[UInt8]]) -> Int? {
        rows.firstIndex { same(row, $0) }
    }
}
