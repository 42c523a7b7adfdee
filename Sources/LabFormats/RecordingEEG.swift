import DecoderService
import Decoding
import Foundation
import UtopiaProtocol

/// The EEG and the stimulus the embedded decoder consumed, rebuilt from its
/// input records (`decoder-input.csv`, Protocols/recordings.md §3) on the
/// decoder's own clock.
///
/// - **Clock.** Every message is placed at its Utopia timestamp (wire
///   milliseconds, `CLOCK_MONOTONIC`), unwrapped to the 2³² ms period
///   nearest the engine time the row was consumed, so times are engine
///   milliseconds. A DATAPACKET's stamp is its last sample's time; earlier
///   samples are spaced by the header's period, exactly as the decoder's
///   `AcquisitionStream` times them.
/// - **EEG.** The samples of every DATAPACKET in order. A repeated identical
///   DATAHEADER (one starts every recording folder) changes nothing; one
///   with another rate or other channels is an ``LabFormatError``. Packets
///   the decoder rejects (before a header, wrong channel count, timestamp
///   going back) are left out and counted in ``warnings``. NaN and ±∞ are kept.
/// - **Gaps.** When a packet starts more than 10 sample periods (and more
///   than 0.1 s) after the previous one ended, the missing samples are filled
///   by linear interpolation between the samples either side, on the
///   nominal period, and listed in ``gaps`` (a warning each).
/// - **Stimulus.** Every STIMULUSEVENT sets the state of its objects from its
///   time on (an object is 0 before its first event); ``states(of:)`` gives
///   the state at each sample, as the decoder builds its `V`.
/// - **Trials.** The decoder's view: a NEWTARGET opens one, its first
///   STIMULUSEVENT starts it, the next NEWTARGET, MODECHANGE or RESET closes
///   it; it ends one 60 Hz frame after its last STIMULUSEVENT (``Flicker``).
///
/// ```swift
/// let records = try DecoderInputFile.read(from: folder.appendingPathComponent(DecoderInputFile.name))
/// let eeg = try RecordingEEG(records: records, source: "decoder-input.csv")
/// let onset = eeg.sample(atOrAfter: eeg.flickers[0].start)   // the first trial's sample 0
/// ```
public struct RecordingEEG: Sendable {
    /// One trial as the decoder saw it; times are engine milliseconds.
    public struct Flicker: Sendable, Equatable {
        /// The NEWTARGET that opened it.
        public var newTarget: Double
        /// The decoder mode it ran in (the latest MODECHANGE's text), nil before any.
        public var mode: String?
        /// Its first and last STIMULUSEVENT.
        public var start: Double
        /// See ``start``.
        public var lastEvent: Double
        /// The objects of its first STIMULUSEVENT, in their order.
        public var objectIDs: [UInt8]
        /// One 60 Hz frame after the last STIMULUSEVENT: the decoder's trial end.
        public var end: Double { lastEvent + 1000.0 / 60 }
    }

    /// Samples filled in where the EEG stopped: `count` samples from `sample` on.
    public struct Gap: Sendable, Equatable {
        /// The first filled sample.
        public var sample: Int
        /// How many samples were filled.
        public var count: Int
    }

    /// A MODECHANGE: its time (engine ms) and the new mode's text.
    public struct ModeChangeMark: Sendable, Equatable {
        /// Engine milliseconds.
        public var time: Double
        /// `Calibration.supervised`, `Prediction.static`, `idle`, …
        public var mode: String
    }

    /// Samples per second (the DATAHEADER's).
    public private(set) var sampleRate: Double
    /// The DATAHEADER's labels (numbered "1", "2", … when it gave none or too few).
    public private(set) var channelNames: [String]
    /// Channels × samples, µV as the amplifier sent them (NaN and ±∞ kept).
    public private(set) var samples: [[Float]]
    /// Each sample's time, engine milliseconds.
    public private(set) var times: [Double]
    /// The gaps filled.
    public private(set) var gaps: [Gap] = []
    /// Every object a STIMULUSEVENT named, ascending.
    public var objectIDs: [UInt8] { changes.keys.sorted() }
    /// The decoder's trials, in time order.
    public private(set) var flickers: [Flicker] = []
    /// The MODECHANGEs, in time order.
    public private(set) var modeChanges: [ModeChangeMark] = []
    /// What was noticed and survived, one line each.
    public private(set) var warnings: [String] = []
    private var changes: [UInt8: [(time: Double, state: UInt8)]] = [:]

    /// Samples per channel.
    public var sampleCount: Int { times.count }

    /// Rebuilds the EEG from `records` (in the order consumed); `source` names them in errors.
    public init(records: [DecoderInputRecord], source: String) throws(LabFormatError) {
        var header: DataHeader?
        var period = 0.0
        var lastStamp: Int32?
        var rejected: [String: Int] = [:]
        var open: Flicker?, opened: (time: Double, mode: String?)?
        var mode: String?
        var lastEventStamp: Int32?
        var outOfOrderEvents = 0
        sampleRate = 0
        channelNames = []
        samples = []
        times = []

        var finished: [Flicker] = []
        func close() {
            if let open { finished.append(open) }
            open = nil
            opened = nil
        }
        for record in records {
            guard let message = record.message else { continue }
            let time = Self.unwrap(message.timestamp, near: record.time * 1000)
            switch message {
            case .dataHeader(let next):
                guard next.channelCount > 0, next.sampleRate.isFinite, next.sampleRate > 0 else {
                    rejected["invalid DATAHEADER", default: 0] += 1
                    continue
                }
                if let header {
                    if header.channelCount != next.channelCount || header.sampleRate != next.sampleRate || header.labels != next.labels {
                        throw LabFormatError(source, "the EEG changes from \(Self.describe(header)) to \(Self.describe(next)) at engine time \(String(format: "%.3f", record.time)) s; a BDF file holds one set of channels at one rate")
                    }
                } else {
                    header = next
                    sampleRate = Double(next.sampleRate)
                    period = 1000 / sampleRate
                    let count = Int(next.channelCount)
                    channelNames = next.labels.count >= count ? Array(next.labels.prefix(count)) : (1...count).map(String.init)
                    samples = [[Float]](repeating: [], count: count)
                }
                lastStamp = nil
            case .dataPacket(let packet):
                guard let header else { rejected["DATAPACKET before any DATAHEADER", default: 0] += 1; continue }
                let channels = Int(header.channelCount)
                guard !packet.samples.isEmpty, packet.samples.allSatisfy({ $0.count == channels }) else {
                    rejected["DATAPACKET with the wrong number of channels", default: 0] += 1
                    continue
                }
                if let lastStamp, packet.timestamp &- lastStamp < 0 {
                    rejected["DATAPACKET whose timestamp went back", default: 0] += 1
                    continue
                }
                lastStamp = packet.timestamp
                let n = packet.samples.count
                let first = time - Double(n - 1) * period
                if let previous = times.last {
                    let late = first - (previous + period)
                    if late > max(10 * period, 100) { fill(late: late, period: period) }
                    if late < -max(10 * period, 100) {
                        warnings.append(String(format: "%@: a DATAPACKET at engine time %.3f s overlaps the one before by %.3f s (kept as sent)", source, time / 1000, -late / 1000))
                    }
                }
                for i in 0..<n { times.append(first + Double(i) * period) }
                for c in samples.indices {
                    for row in packet.samples { samples[c].append(row[c]) }
                }
            case .stimulusEvent(let event):
                if let last = lastEventStamp, event.timestamp &- last < 0 { outOfOrderEvents += 1; continue }
                lastEventStamp = event.timestamp
                for (id, state) in zip(event.objIDs, event.objStates) where changes[id]?.last?.state != state {
                    changes[id, default: []].append((time, state))
                }
                if let opening = opened {
                    if open == nil {
                        open = Flicker(newTarget: opening.time, mode: opening.mode, start: time, lastEvent: time, objectIDs: event.objIDs)
                    } else {
                        open!.lastEvent = time
                    }
                }
            case .newTarget:
                close()
                opened = (time, mode)
            case .modeChange(let change):
                close()
                mode = change.newMode
                modeChanges.append(ModeChangeMark(time: time, mode: change.newMode))
            case .reset:
                close()
                lastEventStamp = nil
            default:
                continue
            }
        }
        close()
        flickers = finished
        finishGaps()
        guard header != nil else { throw LabFormatError(source, "holds no DATAHEADER: no EEG was recorded") }
        guard !times.isEmpty else { throw LabFormatError(source, "holds no DATAPACKET: no EEG was recorded") }
        for (what, count) in rejected.sorted(by: { $0.key < $1.key }) {
            warnings.append("\(source): \(count) × \(what) left out (the decoder rejects them too)")
        }
        if outOfOrderEvents > 0 { warnings.append("\(source): \(outOfOrderEvents) × STIMULUSEVENT whose timestamp went back left out") }
    }

    /// Fills the samples missing before a packet that came `late` ms after the expected time.
    private mutating func fill(late: Double, period: Double) {
        let count = Int((late / period).rounded())
        guard count > 0, let previous = times.last else { return }
        gaps.append(Gap(sample: times.count, count: count))
        warnings.append(String(format: "the EEG stops for %.3f s at engine time %.3f s (%d samples missing): filled by linear interpolation and marked BAD_gap", late / 1000, previous / 1000, count))
        for k in 1...count { times.append(previous + Double(k) * period) }
        // The values are set once the next packet's first sample is known: see `finishGaps`.
        for c in samples.indices {
            samples[c] += [Float](repeating: .nan, count: count)
        }
    }

    /// Interpolates the gaps' samples between their neighbours (called once all packets are in).
    private mutating func finishGaps() {
        for gap in gaps {
            for c in samples.indices {
                let before = gap.sample > 0 ? samples[c][gap.sample - 1] : 0
                let afterIndex = gap.sample + gap.count
                let after = afterIndex < samples[c].count ? samples[c][afterIndex] : before
                let a = before.isFinite ? before : (after.isFinite ? after : 0)
                let b = after.isFinite ? after : a
                for k in 0..<gap.count {
                    let f = Float(k + 1) / Float(gap.count + 1)
                    samples[c][gap.sample + k] = a + (b - a) * f
                }
            }
        }
    }

    /// The index of the first sample at or after `milliseconds` (engine
    /// ms); nil when that is after the last sample, or when the time is more
    /// than one sample period before the first.
    public func sample(atOrAfter milliseconds: Double) -> Int? {
        guard let first = times.first, milliseconds >= first - 1000 / sampleRate else { return nil }
        var low = 0, high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < milliseconds { low = mid + 1 } else { high = mid }
        }
        return low < times.count ? low : nil
    }

    /// Each object's state at every sample (objects × samples): the state of
    /// its latest STIMULUSEVENT at or before the sample's time, 0 before its first.
    public func states(of objects: [UInt8]) -> [[UInt8]] {
        objects.map { id in
            let list = changes[id] ?? []
            var k = -1
            var row = [UInt8](repeating: 0, count: times.count)
            for (s, t) in times.enumerated() {
                while k + 1 < list.count, list[k + 1].time <= t { k += 1 }
                if k >= 0 { row[s] = list[k].state }
            }
            return row
        }
    }

    /// The time nearest `reference` (ms) whose low 32 bits are `stamp`.
    static func unwrap(_ stamp: Int32, near reference: Double) -> Double {
        let period = 4_294_967_296.0
        let k = ((reference - Double(stamp)) / period).rounded()
        return Double(stamp) + k * period
    }

    private static func describe(_ header: DataHeader) -> String {
        "\(header.channelCount) channels at \(RateText.format(Double(header.sampleRate))) Hz" + (header.labels.isEmpty ? "" : " (\(header.labels.joined(separator: ", ")))")
    }
}
