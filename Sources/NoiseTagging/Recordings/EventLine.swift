import Foundation

/// One line of `events.jsonl`: an event's flat JSON (see
/// ``NoiseTagEvent/encode(to:)``) with `wall_time`, the Unix time to the
/// millisecond when it was recorded, written by the same encoder in one pass.
struct EventLine: Encodable {
    let event: NoiseTagEvent
    let wallTime: Double

    func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: EventJSONKey.self)
        try fields.encode((wallTime * 1000).rounded() / 1000, forKey: "wall_time")
        try event.encode(to: encoder)
    }
}
