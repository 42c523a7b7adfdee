/// The controller's clock read without reference counting: reading `now`
/// through an `any EngineClock` costs a retain and a release (two atomic
/// operations) per tick. The controller holds the clock for its whole life.
///
/// ```swift
/// let clock = UnretainedClock(controller.clock)
/// let now = clock.now
/// ```
struct UnretainedClock {
    private protocol Reader {
        static func now(of object: AnyObject) -> Double
    }

    private enum ReaderFor<Clock: EngineClock>: Reader {
        static func now(of object: AnyObject) -> Double { unsafeDowncast(object, to: Clock.self).now }
    }

    private let object: Unmanaged<AnyObject>
    private let reader: any Reader.Type

    /// `clock`, unretained: the caller keeps it alive while this is used.
    init<Clock: EngineClock>(_ clock: Clock) {
        object = .passUnretained(clock)
        reader = ReaderFor<Clock>.self
    }

    /// ``EngineClock/now``.
    var now: Double { object._withUnsafeGuaranteedRef { reader.now(of: $0) } }
}
