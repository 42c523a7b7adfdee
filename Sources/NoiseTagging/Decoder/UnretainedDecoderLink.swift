import UtopiaProtocol

/// A decoder link called without reference counting, for the calls every
/// tick makes (receive, liveness, the STIMULUSEVENT send).
///
/// A call on an `any DecoderLink` loaded from the controller costs a retain
/// and a release (two atomic operations) to keep the link alive during the
/// call. This holds the link unretained, with its methods specialised for
/// its concrete type when it is attached; the controller keeps the link
/// alive (``NoiseTagController/decoderLink`` and, when a call replaces it,
/// until the outermost call returns).
///
/// ```swift
/// let link = UnretainedDecoderLink(controller.decoderLink!)
/// link.send(.heartbeat(Heartbeat(timestamp: 0)))
/// ```
struct UnretainedDecoderLink {
    private protocol Calls {
        static func send(_ message: UtopiaMessage, on object: AnyObject)
        static func receive(on object: AnyObject) -> (messages: [UtopiaMessage], problems: [String])
        static func monitorsLiveness(on object: AnyObject) -> Bool
    }

    private enum CallsFor<Link: DecoderLink>: Calls {
        static func send(_ message: UtopiaMessage, on object: AnyObject) {
            unsafeDowncast(object, to: Link.self).send(message)
        }
        static func receive(on object: AnyObject) -> (messages: [UtopiaMessage], problems: [String]) {
            let link = unsafeDowncast(object, to: Link.self)
            return (link.receive(), link.receiveProblems())
        }
        static func monitorsLiveness(on object: AnyObject) -> Bool {
            unsafeDowncast(object, to: Link.self).monitorsLiveness
        }
    }

    private let object: Unmanaged<AnyObject>
    private let calls: any Calls.Type

    /// `link`, unretained: the caller keeps it alive while this is used.
    init<Link: DecoderLink>(_ link: Link) {
        object = .passUnretained(link)
        calls = CallsFor<Link>.self
    }

    /// ``DecoderLink/send(_:)``.
    func send(_ message: UtopiaMessage) { object._withUnsafeGuaranteedRef { calls.send(message, on: $0) } }

    /// ``DecoderLink/receive()`` and then ``DecoderLink/receiveProblems()``, in one call.
    func receive() -> (messages: [UtopiaMessage], problems: [String]) {
        object._withUnsafeGuaranteedRef { calls.receive(on: $0) }
    }

    /// ``DecoderLink/monitorsLiveness``.
    var monitorsLiveness: Bool { object._withUnsafeGuaranteedRef { calls.monitorsLiveness(on: $0) } }
}
