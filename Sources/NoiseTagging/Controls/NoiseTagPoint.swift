/// A point in the app's own screen coordinates, for touch hit tests.
public struct NoiseTagPoint: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in the app's screen coordinates.
public struct NoiseTagRect: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when `point` lies inside (left/top edges inclusive, right/bottom exclusive).
    public func contains(_ point: NoiseTagPoint) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }
}
