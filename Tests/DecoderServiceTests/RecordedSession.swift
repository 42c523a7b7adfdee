import DecoderService
import Simulation
import UtopiaProtocol

/// A live session with the simulated amplifier and user, its inputs
/// recorded: 8 calibration trials of 2 s on objects 1…4, then three
/// prediction trials in which the user looks at 2, 4 and 1. Run once,
/// shared by the tap and re-decode tests.
struct RecordedSession: Sendable {
    /// What the live decoder consumed, as written to and read back from `decoder-input.csv`.
    let records: [DecoderInputRecord]
    /// Engine seconds of each prediction trial's NEWTARGET.
    let trialStarts: [Double]
    /// The object of the live decoder's last PREDICTEDTARGETPROB in each prediction trial.
    let finalPredictions: [Int8]
    /// The certainty the live fit recommended.
    let threshold: Float?

    static let shared = RecordedSession()

    private init() {
        var settings = DecoderServerSettings()
        settings.simulation = DecoderSimulation(snr: 0.05, seed: 3, gaze: .goals([2, 4, 1]))
        var session = VirtualSession(settings: settings, recordingInput: true)
        session.mode("Calibration.supervised")
        for t in 0..<8 { session.trial(seconds: 2, cued: t % 4 + 1) }
        session.mode("Prediction.static")
        session.wait(200)
        var starts: [Double] = []
        var finals: [Int8] = []
        for _ in 0..<3 {
            let before = session.sent.count
            starts.append(session.now / 1000)
            session.trial(seconds: 2)
            finals.append(session.predictions(from: before).last?.objID ?? -1)
        }
        trialStarts = starts
        finalPredictions = finals
        threshold = session.sent.compactMap { if case .certaintyThreshold(let t) = $0 { return t.threshold } else { return nil } }.last
        // Through the file format, as a recording holds them.
        let text = ([DecoderInputFile.header] + session.decoder.takeInputRecords().map(DecoderInputFile.cells(of:)))
            .map { $0.joined(separator: ",") + "\n" }.joined()
        records = (try? DecoderInputFile.records(in: text, file: "decoder-input.csv")) ?? []
    }
}
