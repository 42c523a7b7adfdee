/// A container of controls and other containers, with a hidden flag.
///
/// A unit on the controller's stack is a view plus a delegate; the engine
/// finds the view's controls by walking this tree depth-first.
open class NoiseTagView {
    /// Hidden views hide every control inside them.
    public var isHidden: Bool
    /// The container above this one, if any.
    public private(set) weak var superview: NoiseTagView?
    /// Child containers, in order.
    public private(set) var subviews: [NoiseTagView] = []
    /// Controls directly in this container, in order.
    public private(set) var controls: [any NoiseTagControl] = []

    /// Creates an empty container.
    public init(isHidden: Bool = false) { self.isHidden = isHidden }

    /// Adds a control to this container.
    public func add(_ control: any NoiseTagControl) {
        control.noiseTagging.container = self
        controls.append(control)
    }

    /// Removes a control from this container (no effect if it is not here).
    public func remove(_ control: any NoiseTagControl) {
        controls.removeAll { $0 === control }
        if control.noiseTagging.container === self { control.noiseTagging.container = nil }
    }

    /// Adds a child container.
    public func addSubview(_ view: NoiseTagView) {
        view.superview = self
        subviews.append(view)
    }

    /// True when this view or one above it is hidden.
    public var isHiddenOrInHiddenContainer: Bool {
        isHidden || (superview?.isHiddenOrInHiddenContainer ?? false)
    }

    /// Every control in this view and its subviews, depth-first, own controls first.
    public var allControls: [any NoiseTagControl] {
        var result = controls
        for view in subviews { result += view.allControls }
        return result
    }
}
