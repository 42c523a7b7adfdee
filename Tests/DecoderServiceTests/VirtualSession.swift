import Codes
import Decoding
import DecoderService
import UtopiaProtocol

/// Drives a ``LiveDecoder`` the way an engine would, on virtual time: modes,
/// NEWTARGETs and one STIMULUSEVENT per 60 Hz frame showing Gold codes on
/// objects 1…K (two frames per bit), advancing the decoder every 10 ms.
/// Fits run at once, as the server's worker thread would run them.
struct VirtualSession {
    var decoder: LiveDecoder
    var now: Double = 1_000_000
    var sent: [UtopiaMessage] = []
    let codes: [[UInt8]]

    init(settings: DecoderServerSettings, objects: Int = 4, recordingInput: Bool = false) {
        decoder = LiveDecoder(settings: settings, now: now, recordingInput: recordingInput)
        codes = GoldCodeSet.codes(count: objects)
    }

    var stamp: Int32 { Int32(truncatingIfNeeded: Int64(now)) }

    mutating func send(_ message: UtopiaMessage) { sent += decoder.receive(message, now: now) }

    mutating func mode(_ text: String) { send(.modeChange(ModeChange(timestamp: stamp, newMode: text))) }

    mutating func wait(_ milliseconds: Double) {
        let end = now + milliseconds
        while now < end {
            now = min(end, now + 10)
            step()
        }
    }

    /// Fits taken but not yet adopted while ``holdsFits`` (a fit still running on its thread).
    var heldFits: [CalibrationJob] = []
    /// True to hold fits instead of adopting them at once.
    var holdsFits = false
    /// When set, the held fits are adopted at this time (a fit's thread finishing then).
    var adoptsHeldFitsAt: Double?

    mutating func step() {
        if let at = adoptsHeldFitsAt, now >= at {
            adoptsHeldFitsAt = nil
            for job in heldFits { sent += decoder.adopt(job.run(), now: now) }
            heldFits = []
        }
        sent += decoder.advance(now: now)
        if let job = decoder.takeCalibrationJob() {
            if holdsFits { heldFits.append(job) } else { sent += decoder.adopt(job.run(), now: now) }
        }
    }

    /// One trial: NEWTARGET, a 0.5 s cue, `seconds` of flicker; with `cued`, object 0 copies that object;
    /// with `pressing`, a SELECTION of that object as the flicker ends (as the engine sends on a press).
    mutating func trial(seconds: Double, cued: Int? = nil, pressing: UInt8? = nil) {
        send(.newTarget(NewTarget(timestamp: stamp)))
        wait(500)
        let frames = Int(seconds * 60)
        let start = now
        for frame in 0..<frames {
            let frameTime = start + Double(frame) * 1000 / 60
            while now + 10 <= frameTime { now += 10; step() }
            now = frameTime
            let bit = (frame / 2) % GoldCodeSet.period
            var ids: [UInt8] = [], states: [UInt8] = []
            if let cued { ids.append(0); states.append(codes[cued - 1][bit]) }
            for k in codes.indices { ids.append(UInt8(k + 1)); states.append(codes[k][bit]) }
            send(.stimulusEvent(StimulusEvent(timestamp: stamp, objIDs: ids, objStates: states)))
            step()
        }
        if let pressing { send(.selection(Selection(timestamp: stamp, objID: pressing))) }
        let end = now + 1000 / 60
        while now < end { now += 5; step() }
        send(.stimulusEvent(StimulusEvent(timestamp: stamp, objIDs: codes.indices.map { UInt8($0 + 1) },
                                          objStates: codes.map { _ in 0 })))
        wait(300)
    }

    /// Messages of one kind sent since `index`.
    func logs(from index: Int = 0) -> [String] {
        sent[index...].compactMap { if case .log(let l) = $0 { return l.message } else { return nil } }
    }

    func predictions(from index: Int = 0) -> [PredictedTargetProb] {
        sent[index...].compactMap { if case .predictedTargetProb(let p) = $0 { return p } else { return nil } }
    }
}
