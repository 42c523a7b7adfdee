import Synchronization

/// The lock that serialises FFTW planner calls (creating and destroying plans
/// is not thread-safe in FFTW; executing a plan is).
///
/// ```swift
/// FFTWPlanning.lock.withLock { _ in /* fftw_plan_… */ }
/// ```
enum FFTWPlanning {
    static let lock = Mutex<Void>(())
}
