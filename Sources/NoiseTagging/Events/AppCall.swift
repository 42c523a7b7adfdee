/// A call the app made into the controller that changes what trials do:
/// the input side of a recording, which replay re-applies at its time.
///
/// `name` is the call (`trialsAreRunning`, `setMode`, `blockTrials`,
/// `unblockTrials`, `touchPress`, `push`, `pop`, `update`, `updateControls`,
/// `resetDecoderCalibration`); `value` its argument as text; `control` and
/// `index` the touched control's identifier and its position among the
/// current unit's controls; `inTick` is true when app code made the call
/// from inside a tick (a delegate, an action, an observer), false between ticks.
///
/// Only subscribers that ask for them receive these events
/// (`subscribe(includingAppCalls: true)`); recordings do.
///
/// ```swift
/// controller.events.subscribe(includingAppCalls: true) { event in
///     if case .call(let call) = event.kind, call.name == "touchPress" { print("touched", call.control ?? "?") }
/// }
/// ```
public struct AppCall: Equatable, Codable, Sendable {
    public var name: String
    public var value: String?
    public var control: String?
    public var index: Int?
    public var inTick: Bool

    /// Creates a call record.
    public init(name: String, value: String? = nil, control: String? = nil, index: Int? = nil, inTick: Bool) {
        self.name = name
        self.value = value
        self.control = control
        self.index = index
        self.inTick = inTick
    }
}
