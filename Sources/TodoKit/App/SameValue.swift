/// True when two values of any `Equatable` types are of one type and equal (the boxes' `==`).
func sameValue(_ lhs: any Equatable, _ rhs: any Equatable) -> Bool { lhs.isEqual(to: rhs) }

extension Equatable {
    fileprivate func isEqual(to other: any Equatable) -> Bool { (other as? Self) == self }
}
