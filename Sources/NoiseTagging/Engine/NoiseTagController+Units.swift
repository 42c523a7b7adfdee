extension NoiseTagController {
    /// Pushes a unit (a view and its delegate) and performs an update: the
    /// running trial stops, all actions are deleted, and the delegate's
    /// `startNoiseTagControlOn(noiseTaggingView:)` assigns them anew.
    public func push(view: NoiseTagView, forNoiseTaggingWithDelegate delegate: NoiseTagDelegate) {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard !isUpdating else { return reportRefused(.stackChangeInsideUpdate(call: "push(view:forNoiseTaggingWithDelegate:)")) }
        emitCall("push")
        units.append(Unit(view: view, delegate: delegate))
        performUpdate(updateCode: nil)
        emit(.unitPushed(depth: units.count, context: delegate.contextDescription()))
    }

    /// Pops the current unit and updates the one below. On an empty stack
    /// nothing changes and a refused call is reported.
    public func pop() {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard !isUpdating else { return reportRefused(.stackChangeInsideUpdate(call: "pop()")) }
        guard let popped = units.popLast() else {
            reportRefused(.popOnEmptyStack)
            return
        }
        emitCall("pop")
        for control in popped.view.allControls { control.noiseTagging.removeAllActions() }
        performUpdate(updateCode: nil)
        emit(.unitPopped(depth: units.count, context: popped.delegate.contextDescription()))
    }

    /// Replaces the current unit's delegate and updates, but only when
    /// `view` is the current unit's view; otherwise nothing happens and a
    /// refused call is reported.
    public func update(view: NoiseTagView, forNoiseTaggingWithDelegate delegate: NoiseTagDelegate) {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard !isUpdating else { return reportRefused(.stackChangeInsideUpdate(call: "update(view:forNoiseTaggingWithDelegate:)")) }
        guard let current = units.last, current.view === view else {
            reportRefused(.updateWithViewNotCurrent)
            return
        }
        emitCall("update")
        units[units.count - 1] = Unit(view: view, delegate: delegate)
        performUpdate(updateCode: nil)
        emit(.unitUpdated(depth: units.count, context: delegate.contextDescription()))
    }

    /// Performs an update of the current unit, running `updateCode` first
    /// (inside the update, so it may change controls and assign actions).
    public func updateControls(updateCode: (() -> Void)? = nil) {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard !isUpdating else { return reportRefused(.stackChangeInsideUpdate(call: "updateControls(updateCode:)")) }
        guard let current = units.last else {
            reportRefused(.updateWithoutUnit)
            return
        }
        emitCall("updateControls")
        performUpdate(updateCode: updateCode)
        emit(.unitUpdated(depth: units.count, context: current.delegate.contextDescription()))
    }

    /// The update every stack change performs.
    func performUpdate(updateCode: (() -> Void)?) {
        stopTrial(.update)
        addBlock(.update, duration: nil)
        for unit in units {
            for control in unit.view.allControls { control.noiseTagging.removeAllActions() }
        }
        lastAssignmentError = nil
        trainingOrder = []
        if let current = units.last {
            for control in current.view.allControls { control.noiseTagging.controller = self }
            updating = true
            updateCode?()
            current.delegate.startNoiseTagControlOn(noiseTaggingView: current.view)
            updating = false
            // The unit's default look as it now stands, for renderers between trials.
            let look = defaultLook()
            for control in current.view.allControls { control.noiseTagging.defaultColor = look.color(for: control) }
            let names = current.view.allControls.compactMap(\.noiseTagging.identifier)
            let shared = Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +).filter { $0.value > 1 }.keys.sorted()
            if !shared.isEmpty {
                emit(.notice("controls of the current unit share an identifier (" + shared.map { "'\($0)'" }.joined(separator: ", ")
                             + "): presses, events and recordings cannot tell them apart"))
            }
            // A prediction names its object in a signed byte: IDs above 127 flicker but only a touch can press them.
            let flickering = current.view.allControls.filter(\.noiseTagging.participatesInFlickering)
            let slots = (try? CodeAssignment.assign(flickering, codeCount: flickering.count, reversed: false)) ?? []
            let unreachable = zip(flickering, slots).filter { $0.1.objectID > CodeAssignment.predictableIDs.upperBound }
            if let first = unreachable.first {
                emit(.notice("\(unreachable.count) control(s) of the current unit get an object ID above 127 ('\(first.0.noiseTagName)': "
                             + "\(first.1.objectID)): a decoder's prediction names objects 1...127 only, so they flicker but only a touch presses them"))
            }
        }
        // Only this update's own block.
        _ = blocks.removeLatest(.update)
        emit(.unblocked(reason: .update))
    }

    /// The current unit's controls that flicker: participating, enabled and visible.
    func flickeringControls() -> [any NoiseTagControl] {
        guard let view = units.last?.view else { return [] }
        return view.allControls.filter { control in
            let p = control.noiseTagging
            return p.participatesInFlickering && p.enabled && !control.isHiddenOrInHiddenContainer
        }
    }
}
