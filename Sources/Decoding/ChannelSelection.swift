/// Which channels of a recording to keep, by name: those listed, in that
/// order, or all but those listed (`noisetag dataset import --channels` and
/// `--drop-channels`). A recording's non-EEG channels (EOG, mastoids, a
/// galvanic-skin sensor) or a montage's far electrodes are left out this way
/// before the decoder sees them.
public enum ChannelSelection: Sendable, Equatable {
    /// These channels, in this order.
    case keep([String])
    /// Every channel but these, in the recording's order.
    case drop([String])

    /// Why the import leaves out a channel that holds no finite sample
    /// (the reason ``indices(among:leftOut:)`` gives for a dead channel).
    public static let deadReason = "it holds no finite sample"

    /// The 0-based indices, among `names`, of the channels selected. A name
    /// matches exactly, else without regard to case when that is unique;
    /// throws a ``ChannelSelectionError`` for a name that matches none (the
    /// recording's names listed), a name given twice, or no channel left.
    /// A name among `leftOut` (channels the import left out, by name, with
    /// why: no finite sample, another sample rate) is already out: dropping
    /// it is no error, keeping it one that says why it is gone.
    public func indices(among names: [String], leftOut: [String: String] = [:]) throws(ChannelSelectionError) -> [Int] {
        let listed: [String]
        switch self {
        case .keep(let l), .drop(let l): listed = l
        }
        var found: [Int] = []
        for name in listed {
            if !names.contains(where: { $0.lowercased() == name.lowercased() }),
               let gone = leftOut[name] != nil ? name : leftOut.keys.sorted().first(where: { $0.lowercased() == name.lowercased() }) {
                if case .drop = self { continue }
                throw ChannelSelectionError("channel \"\(gone)\" was left out on import: \(leftOut[gone] ?? "")")
            }
            // A file may name two channels alike: dropping the name drops both; keeping it cannot say which.
            let twins = names.indices.filter { names[$0] == name }
            if twins.count > 1 {
                guard case .drop = self else {
                    throw ChannelSelectionError("\"\(name)\" names \(twins.count) channels of the file (numbers \(twins.map { String($0 + 1) }.joined(separator: ", "))): which to keep is unclear; --drop-channels the others instead")
                }
                if twins.contains(where: found.contains) { throw ChannelSelectionError("channel \"\(name)\" is named twice") }
                found += twins
                continue
            }
            let index = try Self.index(of: name, among: names)
            if found.contains(index) { throw ChannelSelectionError("channel \"\(names[index])\" is named twice") }
            found.append(index)
        }
        switch self {
        case .keep:
            guard !found.isEmpty else { throw ChannelSelectionError("no channel listed") }
            return found
        case .drop:
            let kept = names.indices.filter { !found.contains($0) }
            guard !kept.isEmpty else { throw ChannelSelectionError("every channel would be dropped") }
            return kept
        }
    }

    private static func index(of name: String, among names: [String]) throws(ChannelSelectionError) -> Int {
        if let exact = names.firstIndex(of: name) { return exact }
        let folded = names.indices.filter { names[$0].lowercased() == name.lowercased() }
        if folded.count == 1 { return folded[0] }
        let shown = names.prefix(12).joined(separator: ", ") + (names.count > 12 ? ", … (\(names.count) in all)" : "")
        throw ChannelSelectionError(folded.isEmpty ? "no channel named \"\(name)\" (the channels: \(shown))"
                                                   : "\"\(name)\" matches several channels when case is ignored: name one exactly")
    }
}

/// Why a ``ChannelSelection`` cannot be applied: one line naming the channel.
public struct ChannelSelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line.
    public let description: String

    init(_ description: String) { self.description = description }
}
