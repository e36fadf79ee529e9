/// What a file's metadata says of the shot it is: its camera, the second it was taken and the
/// fraction of it, and whether it is a RAW; 0 for what it does not say.
///
/// A copy keeps its original's metadata, or loses some of it (all of it, or the fraction of a
/// second), so two files can be copies when each component agrees or one of the two is
/// unknown. A RAW and an image made from it are a stack, never copies.
struct ShotKey: Hashable {
    var make: UInt32
    var model: UInt32
    var seconds: UInt64
    var fraction: UInt32
    var raw: Bool

    /// Whether nothing in the two keys says they are different shots.
    func admits(_ other: ShotKey) -> Bool {
        func agree<T: BinaryInteger>(_ a: T, _ b: T) -> Bool { a == 0 || b == 0 || a == b }
        return raw == other.raw && agree(make, other.make) && agree(model, other.model)
            && agree(seconds, other.seconds)
            && (seconds == 0 || other.seconds == 0 || agree(fraction, other.fraction))
    }

    /// What a set of files whose keys admit one another says as a whole: each component that
    /// any of them knows (they agree on it).
    func merged(with other: ShotKey) -> ShotKey {
        ShotKey(
            make: max(make, other.make), model: max(model, other.model), seconds: max(seconds, other.seconds),
            fraction: max(fraction, other.fraction), raw: raw)
    }

    /// The keys of what knows less than this.
    ///
    /// Its camera kept or not, and its time kept, without its fraction, or not at all. A file
    /// whose key is one of them is found by it.
    var generalisations: [ShotKey] {
        var keys: [ShotKey] = []
        for camera in [(make, model), (0, 0)] {
            for time in [(seconds, fraction), (seconds, 0), (0, 0)] {
                let key = ShotKey(make: camera.0, model: camera.1, seconds: time.0, fraction: time.1, raw: raw)
                if !keys.contains(key) { keys.append(key) }
            }
        }
        return keys
    }

    /// How much it says: files that say more are taken first, so that those that say less join them.
    var specificity: Int {
        (make != 0 ? 1 : 0) + (model != 0 ? 1 : 0) + (seconds != 0 ? 2 : 0) + (fraction != 0 ? 1 : 0)
    }
}
