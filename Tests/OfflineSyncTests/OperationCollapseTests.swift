import OfflineSync
import Testing

/// Every cell of the collapse matrix in sync-semantics.md, in flight too.
@Suite struct OperationCollapseTests {
    struct Cell: Sendable, CustomTestStringConvertible {
        var pending: TableOperationType?
        var inFlight: Bool
        var new: TableOperationType
        var expected: OperationCollapse.Decision
        var testDescription: String { "\(pending?.rawValue ?? "none")\(inFlight ? " (in flight)" : "") + \(new.rawValue)" }
    }

    static let cells: [Cell] = [
        Cell(pending: nil, inFlight: false, new: .insert, expected: .append(.insert)),
        Cell(pending: nil, inFlight: false, new: .update, expected: .append(.update)),
        Cell(pending: nil, inFlight: false, new: .delete, expected: .append(.delete)),
        Cell(pending: .insert, inFlight: false, new: .insert, expected: .reject),
        Cell(pending: .insert, inFlight: false, new: .update, expected: .keepPending),
        Cell(pending: .insert, inFlight: false, new: .delete, expected: .dropPending),
        Cell(pending: .update, inFlight: false, new: .insert, expected: .reject),
        Cell(pending: .update, inFlight: false, new: .update, expected: .keepPending),
        Cell(pending: .update, inFlight: false, new: .delete, expected: .turnPendingIntoDelete),
        Cell(pending: .delete, inFlight: false, new: .insert, expected: .reject),
        Cell(pending: .delete, inFlight: false, new: .update, expected: .reject),
        Cell(pending: .delete, inFlight: false, new: .delete, expected: .reject),
        Cell(pending: .insert, inFlight: true, new: .insert, expected: .reject),
        Cell(pending: .insert, inFlight: true, new: .update, expected: .append(.update)),
        Cell(pending: .insert, inFlight: true, new: .delete, expected: .append(.delete)),
        Cell(pending: .update, inFlight: true, new: .insert, expected: .reject),
        Cell(pending: .update, inFlight: true, new: .update, expected: .append(.update)),
        Cell(pending: .update, inFlight: true, new: .delete, expected: .append(.delete)),
        Cell(pending: .delete, inFlight: true, new: .insert, expected: .reject),
        Cell(pending: .delete, inFlight: true, new: .update, expected: .reject),
        Cell(pending: .delete, inFlight: true, new: .delete, expected: .reject),
    ]

    @Test(arguments: cells)
    func decisionMatchesTheMatrix(_ cell: Cell) {
        #expect(OperationCollapse.decide(pending: cell.pending, inFlight: cell.inFlight, new: cell.new) == cell.expected)
    }

    @Test func anInsertSentBeforeAndThenDeletedBecomesADelete() {
        #expect(OperationCollapse.decide(pending: .insert, inFlight: false, sentBefore: true, new: .delete) == .turnPendingIntoDelete)
    }
}
