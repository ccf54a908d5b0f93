extension Collection {
    /// The elements cut where `key` changes: each run keeps its elements' order, and the runs
    /// keep theirs (grouping would put the runs of one key together).
    func runs<Key: Equatable>(by key: (Element) -> Key) -> [(key: Key, elements: [Element])] {
        var runs: [(key: Key, elements: [Element])] = []
        for element in self {
            let elementKey = key(element)
            if let last = runs.indices.last, runs[last].key == elementKey {
                runs[last].elements.append(element)
            } else {
                runs.append((elementKey, [element]))
            }
        }
        return runs
    }
}
