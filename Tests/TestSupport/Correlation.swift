/// The Pearson correlation of two equally long signals: how the decoding and
/// simulation suites compare a fitted or recorded response with the one expected.
public func correlation(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    var ab = 0.0, aa = 0.0, bb = 0.0
    for (x, y) in zip(a, b) { ab += (x - ma) * (y - mb); aa += (x - ma) * (x - ma); bb += (y - mb) * (y - mb) }
    return ab / (aa * bb).squareRoot()
}
