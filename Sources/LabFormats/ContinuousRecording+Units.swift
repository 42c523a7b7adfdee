import Decoding

extension ContinuousRecording {
    /// Every channel left out, dead or at another rate, with why: what
    /// `--channels` and `--drop-channels` are told (see
    /// ``ChannelSelection/indices(among:leftOut:)``).
    public var leftOutChannels: [String: String] {
        var gone = otherRateChannels
        for name in deadChannels { gone[name] = ChannelSelection.deadReason }
        return gone
    }

    /// The recording with the channels an import keeps, and a warning
    /// where channels not in a voltage unit (``otherUnits``: skin
    /// conductance, respiration, a sensor's own scale) are concerned. With
    /// no `selection`, they are left out when any EEG (voltage) channel
    /// remains, and kept when the recording has no voltage channel at all;
    /// with a selection, it decides (see `--channels`) and the warning
    /// names the ones it keeps. Throws when every voltage channel was left
    /// out as dead and only other units remain: that is no EEG.
    public func keepingEEG(selection: ChannelSelection?) throws(LabFormatError) -> ContinuousRecording {
        let others = channelNames.filter { otherUnits[$0] != nil }
        guard !others.isEmpty else { return self }
        func described(_ names: [String]) -> String {
            names.prefix(8).map { "\($0) (\(otherUnits[$0] ?? ""))" }.joined(separator: ", ") + (names.count > 8 ? ", …" : "")
        }
        var kept = self
        if let selection {
            let chosen = ((try? selection.indices(among: channelNames, leftOut: leftOutChannels)) ?? []).map { channelNames[$0] }
            let keptOthers = others.filter(chosen.contains)
            if !keptOthers.isEmpty {
                kept.warnings.append("\(keptOthers.count) channel(s) not in a voltage unit kept in their own, as chosen: \(described(keptOthers))")
            }
            return kept
        }
        let eeg = channelNames.indices.filter { otherUnits[channelNames[$0]] == nil }
        guard !eeg.isEmpty else {
            guard deadChannels.isEmpty else {
                throw LabFormatError(source, "no EEG channel is left: the voltage channels were left out (\(deadChannels.prefix(8).joined(separator: ", "))\(deadChannels.count > 8 ? ", …" : "")) and the rest are not in a voltage unit (\(described(others))); name channels with --channels to import them anyway")
            }
            kept.warnings.append("no channel is in a voltage unit: all kept in their own: \(described(others))")
            return kept
        }
        kept.channelNames = eeg.map { channelNames[$0] }
        kept.samples = eeg.map { samples[$0] }
        kept.warnings.append("\(others.count) channel(s) not in a voltage unit left out: \(described(others)) (name them in --channels to keep them)")
        return kept
    }
}
