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

    /// Adds a control to the end of this container. A control is in one
    /// container at a time: one already in a container (this one too) moves.
    public func add(_ control: any NoiseTagControl) {
        control.noiseTagging.container?.remove(control)
        control.noiseTagging.container = self
        controls.append(control)
    }

    /// Removes a control from this container (no effect if it is not here).
    public func remove(_ control: any NoiseTagControl) {
        controls.removeAll { $0 === control }
        if control.noiseTagging.container === self { control.noiseTagging.container = nil }
    }

    /// Adds a child container at the end. A view has one superview: one
    /// already in a container (this one too) moves. No effect when `view` is
    /// this view or holds it, which would make the tree a loop.
    public func addSubview(_ view: NoiseTagView) {
        var above: NoiseTagView? = self
        while let ancestor = above {
            if ancestor === view { return }
            above = ancestor.superview
        }
        view.removeFromSuperview()
        view.superview = self
        subviews.append(view)
    }

    /// Takes this view out of its container (no effect if it has none).
    public func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
        superview = nil
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
