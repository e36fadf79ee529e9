/// The sets of copies among a library's files by `DuplicateGroups.find`'s rules, decided in time
/// and memory in proportion to the files, never to the pairs among equal ones
/// (docs/DUPLICATES.md, "Cost").
///
/// 1. The same bytes are one set (the files sorted by content).
/// 2. The files of one perceptual hash are one candidate set, visited once, files that say more
///    of their shot first: each joins the first class of its hash whose key its own does not
///    contradict, found by one lookup among the classes' generalisations, and in it the first of
///    at most `subclassLimit` representatives whose details and colours agree with its own. So a
///    timelapse's frames of one still scene, one hash and a second apart, stay apart, one lookup
///    each, where 100,000 copies of one picture are one set.
/// 3. Near pairs are searched among the distinct hashes, each hash once, keeping the
///    `neighbourLimit` nearest of each, and joined nearest first: class by class, each found by
///    lookups among the other hash's classes, the rules checked between the sets' merged shot
///    keys and their representatives (at most `representativeLimit`), never their members.
struct CopySets {
    /// What deciding them did, which tests hold their cost by.
    struct Work: Equatable, Sendable {
        /// Pairs of distinct hashes compared by `NearPairs`.
        var hashPairs = 0
        /// Files and classes looked up, and pairs of representatives compared.
        var lookups = 0
    }

    static let subclassLimit = 8
    static let neighbourLimit = 16
    /// The most near pairs held at once (8 bytes each), unless `neighbourLimit` a hash needs more.
    static let pairLimit = 4_000_000
    static let representativeLimit = 32

    /// One hash's classes: each its representatives, and the first class under each generalisation of its key.
    private struct Classes {
        var representatives: [[Int32]] = []
        var byKey: [ShotKey: Int] = [:]
    }

    private let pairLimit: Int

    private let facts: [CopyFacts]
    private let colourLimit: Double
    private let colours: (_ position: Int) -> [Double]?
    private var sets: DisjointSets
    /// The merged shot key of each set whose files say more together than its root alone.
    private var keys: [Int32: ShotKey] = [:]
    /// The files of each set that stand for its hashes, once it has joined another.
    private var representatives: [Int32: [Int32]] = [:]
    private var knownColours: [Int32: [Double]?] = [:]
    private(set) var work = Work()

    /// The sets of two or more among `facts` (their positions); `colours(position)` gives a
    /// file's colours, asked for only where two files would join.
    static func decide(
        _ facts: [CopyFacts], threshold: Int, colourLimit: Double, pairLimit: Int = pairLimit,
        colours: (_ position: Int) -> [Double]?
    ) -> (sets: [[Int]], work: Work) {
        // (the closure is used only while deciding)
        withoutActuallyEscaping(colours) { colours in
            var decision = CopySets(facts: facts, colourLimit: colourLimit, pairLimit: pairLimit, colours: colours)
            decision.joinSameBytes()
            decision.joinHashes(threshold: threshold)
            return (decision.setsOfTwoOrMore(), decision.work)
        }
    }

    private init(
        facts: [CopyFacts], colourLimit: Double, pairLimit: Int, colours: @escaping (_ position: Int) -> [Double]?
    ) {
        (self.facts, self.colourLimit, self.pairLimit, self.colours) = (facts, colourLimit, pairLimit, colours)
        sets = DisjointSets(count: facts.count)
    }

    private mutating func joinSameBytes() {
        var previous: Int?
        for index in facts.indices.map({ Int32(truncatingIfNeeded: $0) })
            .sorted(by: { (facts[Int($0)].content, $0) < (facts[Int($1)].content, $1) }).lazy.map(Int.init)
        {
            if let previous, facts[previous].content == facts[index].content { sets.union(previous, index) }
            previous = index
        }
    }

    private mutating func joinHashes(threshold: Int) {
        // The hashed files by hash, and within a hash those that say more of their shot first.
        var hashed = facts.indices.filter { facts[$0].hashed }.map { Int32(truncatingIfNeeded: $0) }
        hashed.sort { (facts[Int($0)].perceptualHash, $0) < (facts[Int($1)].perceptualHash, $1) }
        var (distinct, starts): ([UInt64], [Int]) = ([], [])
        for (offset, position) in hashed.enumerated() where distinct.last != facts[Int(position)].perceptualHash {
            distinct.append(facts[Int(position)].perceptualHash)
            starts.append(offset)
        }
        starts.append(hashed.count)
        for run in distinct.indices where starts[run + 1] - starts[run] > 1 {
            hashed[starts[run]..<starts[run + 1]].sort {
                let (x, y) = (facts[Int($0)].shot, facts[Int($1)].shot)
                let (first, second) = (
                    (-x.specificity, x.seconds, x.fraction, x.make, x.model),
                    (-y.specificity, y.seconds, y.fraction, y.make, y.model)
                )
                return first != second ? first < second : $0 < $1
            }
        }
        // A pair of two lone files is kept only when they could join: most near pairs of a large
        // library are chance look-alikes, parted here by their details or shots.
        let pairs = Self.nearPairs(distinct, threshold: threshold, pairLimit: pairLimit, visited: &work.hashPairs) {
            a, b in
            guard starts[a + 1] - starts[a] == 1, starts[b + 1] - starts[b] == 1 else { return true }
            let (x, y) = (facts[Int(hashed[starts[a]])], facts[Int(hashed[starts[b]])])
            return x.detailAgrees(y) && x.shot.admits(y.shot)
        }
        // The classes of the hashes of more than one file that have near pairs: a lone file is its own.
        var near = Set<Int32>()
        for pair in pairs {
            near.formUnion([Int32(truncatingIfNeeded: Self.first(pair)), Int32(truncatingIfNeeded: Self.second(pair))])
        }
        var classes: [Int32: Classes] = [:]
        for run in distinct.indices where starts[run + 1] - starts[run] > 1 {
            let found = joinEqualHash(hashed[starts[run]..<starts[run + 1]])
            if near.contains(Int32(truncatingIfNeeded: run)) { classes[Int32(truncatingIfNeeded: run)] = found }
        }
        near = []
        let classesOf = { (run: Int) in
            classes[Int32(truncatingIfNeeded: run)] ?? Classes(representatives: [[hashed[starts[run]]]])
        }
        for pair in pairs {
            let (a, b) = (classesOf(Self.first(pair)), classesOf(Self.second(pair)))
            let (few, many) = a.representatives.count <= b.representatives.count ? (a, b) : (b, a)
            for x in few.representatives.joined() { joinAcross(x, many) }
        }
    }

    /// A near pair packed as distance << 58 | first << 29 | second: its order is Kruskal's (by
    /// distance, then positions), in 8 bytes.
    private static let positionBits: UInt64 = 29
    private static let positionMask: UInt64 = (1 << positionBits) - 1
    private static func first(_ pair: UInt64) -> Int { Int(pair >> positionBits & positionMask) }
    private static func second(_ pair: UInt64) -> Int { Int(pair & positionMask) }

    /// The pairs of `hashes` (positions) at most `threshold` apart that `keep` keeps, each
    /// once, nearest first.
    ///
    /// In Kruskal's order: by distance, then position. At most `pairLimit` are held: past it,
    /// each hash keeps its `neighbourLimit` nearest (a great cluster of look-alikes).
    private static func nearPairs(
        _ hashes: [UInt64], threshold: Int, pairLimit: Int, visited: inout Int, keep: (Int, Int) -> Bool
    ) -> [UInt64] {
        guard UInt64(hashes.count) <= positionMask else { return [] }
        var packed: [UInt64] = []
        var pruned = false
        func prune() {
            packed.sort()
            var kept = [UInt8](repeating: 0, count: hashes.count)
            packed.removeAll { pair in
                let (a, b) = (first(pair), second(pair))
                guard kept[a] < neighbourLimit || kept[b] < neighbourLimit else { return true }
                (kept[a], kept[b]) = (min(kept[a] + 1, UInt8(neighbourLimit)), min(kept[b] + 1, UInt8(neighbourLimit)))
                return false
            }
            pruned = true
        }
        NearPairs.forEach(hashes, radius: threshold, visited: &visited) { a, b, distance in
            guard keep(a, b) else { return }
            packed.append(UInt64(distance) << (2 * positionBits) | UInt64(a) << positionBits | UInt64(b))
            if packed.count >= max(pairLimit, 2 * neighbourLimit * hashes.count) { prune() }
        }
        if !pruned { packed.sort() }
        return packed
    }

    /// Joins the files of one hash into classes, and returns them.
    private mutating func joinEqualHash(_ run: ArraySlice<Int32>) -> Classes {
        var classes = Classes()
        for file in run {
            work.lookups += 1
            let key = facts[Int(file)].shot
            if let found = classes.byKey[key] {
                var joined = false
                for representative in classes.representatives[found] {
                    work.lookups += 1
                    if join(Int(file), Int(representative), across: false) {
                        joined = true
                        break
                    }
                }
                if !joined, classes.representatives[found].count < Self.subclassLimit {
                    classes.representatives[found].append(file)
                }
            } else {
                for general in key.generalisations where classes.byKey[general] == nil {
                    classes.byKey[general] = classes.representatives.count
                }
                classes.representatives.append([file])
            }
        }
        if classes.representatives.count == 1 { classes.byKey = [:] }
        return classes
    }

    /// Joins `file`'s set with the first of `other`'s classes whose key does not contradict its own.
    private mutating func joinAcross(_ file: Int32, _ other: Classes) {
        if other.representatives.count == 1 {
            for representative in other.representatives[0] {
                work.lookups += 1
                if join(Int(file), Int(representative), across: true) { return }
            }
            return
        }
        let key = facts[Int(file)].shot
        var tried: [Int] = []
        for general in key.generalisations {
            work.lookups += 1
            guard let found = other.byKey[general], !tried.contains(found) else { continue }
            tried.append(found)
            for representative in other.representatives[found] {
                work.lookups += 1
                if join(Int(file), Int(representative), across: true) { return }
            }
        }
    }

    /// Joins the sets of `a` and `b` when the rules allow, and says whether they are one set.
    ///
    /// Across hashes, the two sets' representatives must be within the spread of one another,
    /// and the joined set's representatives are both sets'; within one hash, `b` stands for `a`.
    private mutating func join(_ a: Int, _ b: Int, across: Bool) -> Bool {
        let (first, second) = (sets.find(a), sets.find(b))
        if first == second { return true }
        let (x, y) = (Int32(truncatingIfNeeded: first), Int32(truncatingIfNeeded: second))
        let merged = key(of: x)
        guard merged.admits(key(of: y)), facts[a].detailAgrees(facts[b]) else { return false }
        // (a set without a list is one hash's: the hashed file in hand stands for it, not its
        // root, which may be a copy of the same bytes not hashed yet)
        var ends = representatives[y] ?? [Int32(truncatingIfNeeded: b)]
        if across {
            let own = representatives[x] ?? [Int32(truncatingIfNeeded: a)]
            guard own.count + ends.count <= Self.representativeLimit else { return false }
            work.lookups += own.count * ends.count
            guard !own.contains(where: { p in ends.contains { facts[Int(p)].spreadApart(facts[Int($0)]) } }) else {
                return false
            }
            ends += own
        }
        guard coloursAgree(colour(of: a, keeping: across), colour(of: b, keeping: true)) else { return false }
        let joinedKey = merged.merged(with: key(of: y))
        sets.union(first, second)
        let root = Int32(truncatingIfNeeded: sets.find(first))
        for old in [x, y] { (keys[old], representatives[old]) = (nil, nil) }
        keys[root] = joinedKey
        representatives[root] = ends
        return true
    }

    private func key(of root: Int32) -> ShotKey { keys[root] ?? facts[Int(root)].shot }

    /// A file's colours, kept for a representative (asked again), not for every file of a hash.
    private mutating func colour(of position: Int, keeping: Bool) -> [Double]? {
        let key = Int32(truncatingIfNeeded: position)
        if let known = knownColours[key] { return known }
        let found = colours(position)
        if keeping { knownColours[key] = found }
        return found
    }

    /// Whether two photos' colours differ by a mean of at most `colourLimit`; without both, no
    /// evidence either way.
    private func coloursAgree(_ a: [Double]?, _ b: [Double]?) -> Bool {
        DuplicateGroups.colourDifference(a, b).map { $0 <= colourLimit } ?? true
    }

    private mutating func setsOfTwoOrMore() -> [[Int]] {
        var members: [Int: [Int]] = [:]
        for index in facts.indices where sets.size(of: index) > 1 {
            members[sets.find(index), default: []].append(index)
        }
        return Array(members.values)
    }
}
