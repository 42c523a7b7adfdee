/// The structure side of a reconvolution fit over one window of lags: the
/// cross-covariance `Cxm` of the EEG channels with the event × lag
/// features, and their own covariance `Cmm` (not yet shrunk). A feature
/// depends only on its event and its lag from the onset, so the
/// covariances of a narrower window are a block of a wider one's, the
/// same to the bit: settings selection computes them once per fold and
/// event definition, over every window its candidates need, and each fit
/// takes its block.
struct StructureCovariances: Sendable {
    /// The events the features are of.
    let encoder: EventEncoder
    var eventCount: Int { encoder.eventCount }
    /// The window: lags `firstLag ..< firstLag + lagCount` samples after each onset.
    let firstLag: Int
    let lagCount: Int
    /// Channels × features (event-major).
    let cxm: Matrix
    /// Features × features.
    let cmm: Matrix

    /// The covariances of `s`'s trials (each `n` samples, their classes'
    /// `codes`) with the `encoder`'s events over the window.
    init(_ s: CovarianceSums, codes: [[UInt8]], encoder: EventEncoder, n: Int, firstLag: Int, lagCount: Int) {
        let features = encoder.eventCount * lagCount
        let total = Double(s.total)
        var cxm = Matrix(rows: s.channels, columns: features)
        var meanM = [Double](repeating: 0, count: features)
        var terms: [(EventStructure, Double)] = []
        for (k, count) in s.classCounts {
            let m = EventStructure(onsets: encoder.onsets(of: Array(codes[k].prefix(n))), samples: n,
                                   firstLag: firstLag, lagCount: lagCount)
            terms.append((m, Double(count)))
            m.addProduct(s.classSums[k]!, to: &cxm)
            for (f, sum) in m.rowSums().enumerated() { meanM[f] += sum * Double(count) }
        }
        var cmm = EventStructure.weightedGram(terms)
        meanM = meanM.map { $0 / total }
        for a in 0..<features {
            for b in 0..<features { cmm[a, b] = cmm[a, b] / total - meanM[a] * meanM[b] }
        }
        for c in 0..<s.channels {
            for f in 0..<features { cxm[c, f] = cxm[c, f] / total - s.mean[c] * meanM[f] }
        }
        self.init(encoder: encoder, firstLag: firstLag, lagCount: lagCount, cxm: cxm, cmm: cmm)
    }

    private init(encoder: EventEncoder, firstLag: Int, lagCount: Int, cxm: Matrix, cmm: Matrix) {
        self.encoder = encoder
        self.firstLag = firstLag
        self.lagCount = lagCount
        self.cxm = cxm
        self.cmm = cmm
    }

    /// The block of a narrower window of the same events; nil when the
    /// window reaches outside this one or the events differ.
    func window(of encoder: EventEncoder, firstLag first: Int, lagCount count: Int) -> StructureCovariances? {
        guard encoder == self.encoder, first >= firstLag, first + count <= firstLag + lagCount else { return nil }
        if first == firstLag && count == lagCount { return self }
        let offset = first - firstLag
        let features = eventCount * count
        // Feature f of the window is feature `wide(f)` here.
        let wide = (0..<features).map { f in (f / count) * lagCount + offset + f % count }
        var x = Matrix(rows: cxm.rows, columns: features)
        for c in 0..<cxm.rows {
            for f in 0..<features { x.elements[c * features + f] = cxm.elements[c * cxm.columns + wide[f]] }
        }
        var m = Matrix(rows: features, columns: features)
        for a in 0..<features {
            let row = wide[a] * cmm.columns
            for b in 0..<features { m.elements[a * features + b] = cmm.elements[row + wide[b]] }
        }
        return StructureCovariances(encoder: encoder, firstLag: first, lagCount: count, cxm: x, cmm: m)
    }
}
