import Foundation

/// The operating system's calendar time (`CLOCK_REALTIME`).
public final class SystemWallClock: WallClock, Sendable {
    /// Creates the clock; it has no state.
    public init() {}

    /// The current calendar time.
    public var now: Date { Date() }
}
