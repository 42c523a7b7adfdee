import Foundation

/// A wall clock tests control: it shows a set date, and when it follows an
/// engine clock it moves on with it (so advancing a ``VirtualClock`` moves
/// the wall clock too).
///
/// ```swift
/// let engine = VirtualClock()
/// let wall = SettableWallClock(RecordingName.date("2019-09-23 09.44.45 +0000")!, following: engine)
/// engine.advance(by: 60)   // wall.now is 09.45.45
/// ```
public final class SettableWallClock: WallClock {
    private var base: Date
    private var engineBase: Double
    private let engine: EngineClock?

    /// Creates a clock showing `date`, following `engine` when given.
    public init(_ date: Date, following engine: EngineClock? = nil) {
        base = date
        self.engine = engine
        engineBase = engine?.now ?? 0
    }

    /// The set date plus the engine time elapsed since it was set.
    public var now: Date {
        guard let engine else { return base }
        return base.addingTimeInterval(engine.now - engineBase)
    }

    /// Shows `date` from now on (a jump, as when the user changes the clock).
    public func set(_ date: Date) {
        base = date
        engineBase = engine?.now ?? 0
    }

    /// Moves the shown date by `seconds` (without moving the engine clock).
    public func advance(by seconds: Double) {
        base = base.addingTimeInterval(seconds)
    }
}
