import Foundation
import TableProtocol
import Testing
@testable import TodoModel

/// Subtasks (#57): an item's parent, the rules every device reads it by, and its forms.
@Suite struct SubtaskTests {
    private func outline(_ links: [(String, String?)]) -> [String] {
        Subtasks.outline(links, id: \.0, parent: \.1).map { String(repeating: ">", count: $0.depth) + $0.item.0 }
    }

    @Test func subtasksFollowTheirParentOneLevelDeeperInTheOrderGiven() {
        #expect(outline([("b", "a"), ("x", nil), ("a", nil), ("c", "a"), ("d", "c")]) == ["x", "a", ">b", ">c", ">>d"])
    }

    @Test func aSubtaskWhoseParentIsNotShownStandsAtTheTopInItsPlace() {
        #expect(outline([("x", nil), ("b", "gone"), ("y", nil)]) == ["x", "b", "y"])
    }

    @Test func aCycleTwoDevicesMadeIsBrokenAtItsSmallestIdOnEveryDevice() {
        let oneOrder = outline([("q", "p"), ("p", "q"), ("r", "q")])
        let otherOrder = outline([("r", "q"), ("p", "q"), ("q", "p")])
        #expect(oneOrder == ["p", ">q", ">>r"])
        #expect(otherOrder == ["p", ">q", ">>r"])
    }

    @Test func aCycleEnteredFromATailIsBrokenAtTheCyclesSmallestIdAndTheTailKeepsItsParents() {
        // t2 → t1 → c3 → c1 → c2 → c3: the tail hangs under the cycle, broken at c1.
        let links: [String: String?] = ["t2": "t1", "t1": "c3", "c3": "c1", "c1": "c2", "c2": "c3", "top": nil]
        #expect(Subtasks.shownParents(links) == ["t2": "t1", "t1": "c3", "c3": "c1", "c2": "c3"])
    }

    @Test func twoCyclesAreEachBrokenOnce() {
        let links: [String: String?] = ["a": "b", "b": "a", "x": "z", "y": "x", "z": "y"]
        #expect(Subtasks.shownParents(links) == ["b": "a", "y": "x", "z": "y"])
    }

    @Test func anItemNamedAsItsOwnParentStandsAtTheTop() {
        #expect(outline([("a", "a")]) == ["a"])
    }

    @Test func noItemIsLostWhateverTheLinks() {
        let links: [(String, String?)] = (0..<200).map { n in ("i\(n)", n % 7 == 0 ? nil : "i\((n * 37 + 11) % 200)") }
        #expect(Set(outline(links).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ">")) }) == Set(links.map(\.0)))
    }

    @Test func puttingAnItemUnderItsOwnSubtaskWouldMakeACycle() {
        let parents = ["b": "a", "c": "b"]
        #expect(Subtasks.wouldCycle("a", under: "c") { parents[$0] })
        #expect(Subtasks.wouldCycle("a", under: "a") { parents[$0] })
        #expect(!Subtasks.wouldCycle("c", under: "a") { parents[$0] })
        #expect(!Subtasks.wouldCycle("x", under: "c") { parents[$0] })
    }

    @Test func aCycleAboveThatDoesNotPassThroughTheItemIsNotItsToRefuse() {
        let parents = ["p": "q", "q": "p"]
        #expect(!Subtasks.wouldCycle("x", under: "p") { parents[$0] })
    }

    @Test func jsonCarriesTheParentBothWays() throws {
        let object = ItemJSON.object(TodoItem(id: "b", text: "pack socks", parentId: "a"), listName: nil)
        #expect(object["parent"] == .string("a"))
        #expect(try ItemJSON.entry(object, stableId: { _ in "b" }).item.parentId == "a")
        #expect(ItemJSON.object(TodoItem(id: "a", text: "x"), listName: nil)["parent"] == .null)
    }

    @Test func aJSONParentThatIsTheItemItselfIsRefused() {
        #expect(throws: ItemJSON.FieldError.self) { try ItemJSON.entry(["id": .string("a"), "text": .string("x"), "parent": .string("a")], stableId: { _ in "a" }) }
    }

    @Test func theNextInstanceOfARepeatingSubtaskStaysUnderItsParent() {
        let item = TodoItem(id: "b", text: "water", due: DueDate("2026-12-01"), repeatRule: RepeatRule("1d"), parentId: "a")
        #expect(item.nextInstance(today: DueDate("2026-12-01")!)?.parentId == "a")
    }

    @Test func theRowHasAParentColumn() {
        #expect(TodoItem(id: "b", text: "x", parentId: "a").object["parentId"] == .string("a"))
        #expect(TodoItem(id: "b", text: "x").object["parentId"] == .null)
    }

    // MARK: CalDAV

    private func resource(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO"] + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    @Test func aParentRelationIsReadAsTheParent() throws {
        #expect(try VTODOMapping.read(resource(["UID:b", "SUMMARY:x", "RELATED-TO;RELTYPE=PARENT:a"])).item.parentId == "a")
        #expect(try VTODOMapping.read(resource(["UID:b", "SUMMARY:x", "RELATED-TO:a"])).item.parentId == "a", "PARENT is RELTYPE's default")
        #expect(try VTODOMapping.read(resource(["UID:b", "SUMMARY:x", "RELATED-TO;RELTYPE=parent:a"])).item.parentId == "a")
    }

    @Test func otherRelationsAreKeptAsTheyCame() throws {
        let task = try VTODOMapping.read(resource(["UID:b", "SUMMARY:x", "RELATED-TO;RELTYPE=SIBLING:c", "RELATED-TO;RELTYPE=PARENT:a"]))
        #expect(task.item.parentId == "a")
        let text = VTODOMapping.write(task, updated: Date())
        #expect(text.contains("RELATED-TO;RELTYPE=SIBLING:c"))
        #expect(text.components(separatedBy: "RELATED-TO;RELTYPE=PARENT:a").count == 2, "one parent relation, ours")
    }

    @Test func theParentIsWrittenAsAParentRelationAndReadBack() throws {
        let text = VTODOMapping.write(TaskResource(item: TodoItem(id: "b", text: "pack socks", parentId: "a")), updated: Date())
        #expect(text.contains("RELATED-TO;RELTYPE=PARENT:a"))
        #expect(try VTODOMapping.read(text).item.parentId == "a")
    }

    @Test func aTaskNamingItselfAsItsParentIsAtTheTop() throws {
        #expect(try VTODOMapping.read(resource(["UID:b", "SUMMARY:x", "RELATED-TO:b"])).item.parentId == nil)
    }

    @Test func aParentClearedInTodoLeavesNoRelation() throws {
        var task = try VTODOMapping.read(resource(["UID:b", "SUMMARY:x", "RELATED-TO;RELTYPE=PARENT:a"]))
        task.item.parentId = nil
        #expect(!VTODOMapping.write(task, updated: Date()).contains("RELATED-TO"))
    }
}
