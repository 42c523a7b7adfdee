extension SessionReport {
    /// A part of the report, or the sentence the page shows instead.
    public enum Part<Value: Sendable>: Sendable {
        /// The part's figures.
        case present(Value)
        /// Why there is nothing to show.
        case absent(String)

        /// The figures, nil when absent.
        public var value: Value? { if case .present(let v) = self { return v } else { return nil } }
        /// The sentence, nil when present.
        public var absence: String? { if case .absent(let s) = self { return s } else { return nil } }
    }
}
