import UtopiaProtocol

extension UtopiaFixture {
    /// The `fields` object of a vector, named as in `utopiaclient.py`.
    struct Fields: Decodable {
        let timestamp: Int32
        var statemessage: String?
        var objIDs: [UInt8]?
        var objState: [UInt8]?
        var Yest: Int8?
        var Perr: Double?
        var pTgt: [Double]?
        var samples: [[Double]]?
        var fsample: Double?
        var nchannels: Int32?
        var labels: [String]?
        var objID: UInt8?
        var newmode: String?
        var logmsg: String?
        var signalQuality: [Double]?
        var messageIDs: String?

        func message(type: String) throws -> UtopiaMessage {
            let t = timestamp
            switch type {
            case "H": return .heartbeat(Heartbeat(timestamp: t, stateMessage: statemessage))
            case "E": return .stimulusEvent(StimulusEvent(timestamp: t, objIDs: try need(objIDs), objStates: try need(objState)))
            case "P": return .predictedTargetProb(PredictedTargetProb(
                timestamp: t, objID: try need(Yest), errorProbability: try float(need(Perr))))
            case "F": return .predictedTargetDist(PredictedTargetDist(
                timestamp: t, objIDs: try need(objIDs), probabilities: try need(pTgt).map(float)))
            case "D": return .dataPacket(DataPacket(timestamp: t, samples: try need(samples).map { try $0.map(float) }))
            case "A": return .dataHeader(DataHeader(
                timestamp: t, channelCount: try need(nchannels), sampleRate: try float(need(fsample)), labels: try need(labels)))
            case "N": return .newTarget(NewTarget(timestamp: t))
            case "S": return .selection(Selection(timestamp: t, objID: try need(objID)))
            case "R": return .reset(Reset(timestamp: t))
            case "M": return .modeChange(ModeChange(timestamp: t, newMode: try need(newmode)))
            case "L": return .log(Log(timestamp: t, message: try need(logmsg)))
            case "Q": return .signalQuality(SignalQuality(timestamp: t, quality: try need(signalQuality).map(float)))
            case "B": return .subscribe(Subscribe(timestamp: t, messageIDs: try need(messageIDs)))
            default: throw FixtureError("unknown type \(type)")
            }
        }

        private func need<T>(_ value: T?) throws -> T {
            guard let value else { throw FixtureError("a field is missing (timestamp \(timestamp))") }
            return value
        }

        /// The fixtures list float32 values as doubles; refuse any that is not one.
        private func float(_ value: Double) throws -> Float {
            guard Double(Float(value)) == value else { throw FixtureError("\(value) is not a float32") }
            return Float(value)
        }
    }
}
