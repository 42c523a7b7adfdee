extension TrialsDataset {
    /// The channels' names: the header's, else "1" … "n".
    public var channelNames: [String] { header.channels ?? (1...header.nChannels).map(String.init) }

    /// The dataset with the channels that `selection` keeps, in its order:
    /// in the trials, in the continuous recording where there is one, and
    /// in the header's names. `leftOut` names channels the import left out
    /// besides the header's dead ones, with why (see
    /// ``ChannelSelection/indices(among:leftOut:)``). Throws the selection's
    /// one-line error.
    public func selectingChannels(_ selection: ChannelSelection, leftOut: [String: String] = [:]) throws -> TrialsDataset {
        var gone = leftOut
        for name in header.deadChannels ?? [] { gone[name] = ChannelSelection.deadReason }
        let kept = try selection.indices(among: channelNames, leftOut: gone)
        guard kept != Array(0..<header.nChannels) else { return self }
        let h = header, n = h.nSamples
        var selected = h
        selected.nChannels = kept.count
        selected.channels = kept.map { channelNames[$0] }
        var x: [Float] = []
        x.reserveCapacity(h.nTrials * kept.count * n)
        for t in 0..<h.nTrials {
            for c in kept { x += data[((t * h.nChannels + c) * n)..<((t * h.nChannels + c + 1) * n)] }
        }
        let context = self.context.map { context in
            ContinuousContext(samples: kept.flatMap { context.samples[($0 * context.length)..<(($0 + 1) * context.length)] },
                              length: context.length, onsets: context.onsets)
        }
        return try TrialsDataset(header: selected, data: x, labels: labels, stimulus: stimulus, context: context)
    }
}
