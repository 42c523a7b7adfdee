/// A point in the app's own screen coordinates, for touch hit tests.
///
/// ```swift
/// let tap = NoiseTagPoint(x: 12, y: 4)
/// ```
public struct NoiseTagPoint: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double

    /// Creates a point.
    ///
    /// ```swift
    /// let origin = NoiseTagPoint(x: 0, y: 0)
    /// ```
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in the app's screen coordinates.
///
/// ```swift
/// let frame = NoiseTagRect(x: 0, y: 0, width: 10, height: 3)
/// frame.contains(NoiseTagPoint(x: 5, y: 1))  // true
/// ```
public struct NoiseTagRect: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// Creates a rectangle.
    ///
    /// ```swift
    /// let frame = NoiseTagRect(x: 0, y: 0, width: 10, height: 3)
    /// ```
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when `point` lies inside (left/top edges inclusive, right/bottom exclusive).
    ///
    /// ```swift
    /// frame.contains(tap)
    /// ```
    public func contains(_ point: NoiseTagPoint) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }
}
