/// The signal view's vertical scale: how many µV one channel's band spans
/// from bottom to top, on a 1-2-5 ladder from 1 µV to 100 mV. Automatic
/// until the user zooms; automatic again on request.
///
/// ```swift
/// var scale = SignalScale()
/// scale.fit(peakToPeak: 37)   // automatic: 50 µV per band
/// scale.zoomIn()              // 20 µV per band, now manual
/// ```
struct SignalScale: Equatable, Sendable {
    /// The µV-per-band steps, smallest first.
    static let steps: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000,
                                  50_000, 100_000]
    /// The share of a band the automatic scale lets a typical channel's swing fill.
    static let fill = 0.8

    /// Position on ``steps``.
    private(set) var index: Int
    /// True while the scale follows the signal.
    private(set) var isAutomatic: Bool

    /// An automatic scale starting at 100 µV per band.
    init() {
        index = Self.steps.firstIndex(of: 100)!
        isAutomatic = true
    }

    /// µV from the bottom of a band to its top.
    var microvoltsPerBand: Double { Self.steps[index] }

    /// A smaller span (the trace grows); the scale becomes manual.
    mutating func zoomIn() {
        index = max(0, index - 1)
        isAutomatic = false
    }

    /// A larger span (the trace shrinks); the scale becomes manual.
    mutating func zoomOut() {
        index = min(Self.steps.count - 1, index + 1)
        isAutomatic = false
    }

    /// Follows the signal again from the next ``fit(peakToPeak:)``.
    mutating func automate() { isAutomatic = true }

    /// When automatic, the smallest step in which a swing of `peakToPeak` µV
    /// fills at most ``fill`` of a band; a swing that is not positive and
    /// finite leaves the scale alone.
    mutating func fit(peakToPeak: Double) {
        guard isAutomatic, peakToPeak.isFinite, peakToPeak > 0 else { return }
        let wanted = peakToPeak / Self.fill
        index = Self.steps.firstIndex { $0 >= wanted } ?? Self.steps.count - 1
    }
}
