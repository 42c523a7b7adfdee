import Foundation

/// The operating system's calendar time (`CLOCK_REALTIME`).
///
/// ```swift
/// let wall = SystemWallClock().now
/// ```
public final class SystemWallClock: WallClock, Sendable {
    /// Creates the clock; it has no state.
    ///
    /// ```swift
    /// let clock = SystemWallClock()
    /// ```
    public init() {}

    /// The current calendar time.
    public var now: Date { Date() }
}
