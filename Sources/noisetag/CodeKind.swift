import ArgumentParser

/// The kinds of codebook `noisetag codes generate` makes.
enum CodeKind: String, CaseIterable, ExpressibleByArgument {
    /// Cyclic shifts of one m-sequence.
    case mseq
    /// The Gold family of a preferred pair (pyntbci's codes, then the two m-sequences).
    case gold
    /// Gold codes modulated with a double-rate clock (twice as long).
    case mgold
}
