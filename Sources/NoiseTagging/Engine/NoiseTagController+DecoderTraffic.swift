import UtopiaProtocol

/// The engine's side of the bridge: links deal in messages, and here the
/// messages meet their bytes for the traffic observers (a recording's
/// `decoder.csv`). A ``WireDecoderLink`` reports the bytes it put on or took
/// off the wire; for any other link the engine encodes the message, and only
/// while someone watches the traffic.
extension NoiseTagController {
    /// Sends `message` to the decoder and shows it, with its bytes, to the
    /// traffic observers. A link replaced from inside its own `send` stays
    /// alive until the call returns.
    func send(_ message: UtopiaMessage) {
        let bytes: [UInt8]
        if let wire = wireLink {
            guard let sent = wire.sendEncoded(message) else { return }
            bytes = sent
        } else if let link = self.link {
            guard link.send(message), !trafficObservers.isEmpty else { return }
            bytes = UtopiaCodec.encode(message)
        } else {
            return
        }
        if !trafficObservers.isEmpty { observe(DecoderTraffic(time: engineNow, direction: .out, message: message, bytes: bytes)) }
    }

    /// Handles every message the link received since the last tick, reports
    /// its problems and logs what it dropped. Returns whether anything came.
    func drainDecoderLink(now: Double) -> Bool {
        guard let link = self.link else { return false }
        let wire = wireLink
        let received = wire?.receiveWire() ?? link.receive().map {
            WireMessage(message: $0, bytes: trafficObservers.isEmpty ? [] : UtopiaCodec.encode($0))
        }
        let problems = link.receiveProblems()
        if link.receiveConnections() > 0 { linkConnected(now: now) }
        for item in received {
            if !trafficObservers.isEmpty { observe(DecoderTraffic(time: now, direction: .in, message: item.message, bytes: item.bytes)) }
            handleDecoderMessage(item.message, now: now)
        }
        reportLinkProblems(problems, now: now)
        if let unsent = wire?.receiveUnsent(), !unsent.isEmpty, !trafficObservers.isEmpty {
            for dropped in unsent { observe(DecoderTraffic(time: now, direction: .unsent, message: dropped.message, bytes: dropped.bytes)) }
        }
        return !received.isEmpty
    }

    /// Reports the link's problems as `decoderProblem` events, at most
    /// ``problemsPerSecond`` a second in full: a decoder sending garbage at
    /// every update must not flood the event stream and the recording.
    /// The rest are counted into one event when the second is over, so
    /// none goes unmentioned.
    private func reportLinkProblems(_ problems: [String], now: Double) {
        if now - problemWindowStart >= 1 {
            if problemsHeldBack > 0 {
                emit(.decoderProblem("\(problemsHeldBack) more malformed frame(s) or link problem(s) in the last second, "
                                     + "not reported one by one (at most \(Self.problemsPerSecond) a second are)"))
            }
            problemsHeldBack = 0
            problemsInWindow = 0
            problemWindowStart = problems.isEmpty ? -Double.infinity : now
        }
        for problem in problems {
            if problemsInWindow < Self.problemsPerSecond {
                problemsInWindow += 1
                emit(.decoderProblem(problem))
            } else {
                problemsHeldBack += 1
            }
        }
    }

    private func observe(_ traffic: DecoderTraffic) {
        for id in trafficObservers.ids { trafficObservers.handler(id)?(traffic) }
    }
}
