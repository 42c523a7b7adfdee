import Foundation

/// The calendar time recordings use for folder names and wall-clock columns.
/// Engine decisions never read it, except the recording start rules, which
/// combine it with the engine clock (midnight is a wall-clock event).
public protocol WallClock: AnyObject {
    /// The current calendar time.
    var now: Date { get }
}
