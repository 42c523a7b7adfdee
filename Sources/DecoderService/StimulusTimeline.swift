import Decoding
import UtopiaProtocol

/// The stimulus as the decoder learns it from STIMULUSEVENTs: each object's
/// state changes at wire times, so that the state of any object at any
/// sample time can be read back (the `V` of a trials dataset). An object's
/// state holds from its event until its next one; before its first event it
/// is 0. Events stamped earlier than the latest one are counted and ignored.
///
/// ```swift
/// var timeline = StimulusTimeline()
/// timeline.receive(event)                                   // every STIMULUSEVENT
/// let v = timeline.states(of: [1, 2, 3], at: block.times)   // objects × samples
/// ```
public struct StimulusTimeline: Sendable {
    private var changes: [UInt8: [(time: Double, state: UInt8)]] = [:]
    private var lastStamp: Int32?
    private var unwrapped = 0.0
    /// Events ignored because their timestamp went back.
    public private(set) var outOfOrderEvents = 0

    /// An empty timeline.
    public init() {}

    /// Records one STIMULUSEVENT.
    public mutating func receive(_ event: StimulusEvent) {
        if let lastStamp {
            let step = event.timestamp &- lastStamp
            guard step >= 0 else { outOfOrderEvents += 1; return }
            unwrapped += Double(step)
        } else {
            unwrapped = Double(event.timestamp)
        }
        lastStamp = event.timestamp
        for (id, state) in zip(event.objIDs, event.objStates) {
            if changes[id]?.last?.state != state { changes[id, default: []].append((unwrapped, state)) }
        }
    }

    /// Each object's state at each time (times in ascending order): objects × times.
    public func states(of objects: [UInt8], at times: [Double]) -> [[UInt8]] {
        objects.map { id in
            let list = changes[id] ?? []
            var k = -1
            return times.map { t in
                while k + 1 < list.count, list[k + 1].time <= t { k += 1 }
                return k >= 0 ? list[k].state : 0
            }
        }
    }

    /// Starts afresh for a new session whose clock may have restarted (a
    /// RESET): every change and the latest stamp forgotten, so the next
    /// event is taken whatever its stamp; ``outOfOrderEvents`` keeps counting.
    public mutating func restart() {
        changes.removeAll()
        lastStamp = nil
        unwrapped = 0
    }

    /// Forgets changes before `time`, keeping each object's state then.
    public mutating func forget(before time: Double) {
        for id in changes.keys {
            if let last = changes[id]!.lastIndex(where: { $0.time <= time }), last > 0 {
                changes[id]!.removeFirst(last)
            }
        }
    }
}
