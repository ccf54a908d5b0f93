import Foundation
import TodoKit
import TodoModel

/// Drives an `AppState` in pure tests: messages in, effects out, with store reads answered from
/// an in-memory list (sorted by text, filtered like the store), so no database and no waiting.
public struct ListFixture {
    /// The items "in the store".
    public var items: [TodoItem]
    /// The app under test.
    public var state: AppState
    /// Effects the fixture did not answer (writes, syncs, timers…), in order.
    public private(set) var effects: [Effect] = []
    /// Store reads started but not answered (`send(_:answerReads: false)`).
    public private(set) var unansweredReads: [Effect] = []
    /// The list's live queries: the newest window and count asked for.
    private var liveQueries: [Effect] = []

    /// An app over `texts` (incomplete items with ids "0", "1", …), started with its first
    /// window and count answered.
    public init(_ texts: [String] = [], server: String? = nil, live: Bool = false, pageHeight: Int = 10) {
        items = texts.enumerated().map { TodoItem(id: String($0.offset), text: $0.element) }
        state = AppState(server: server, live: live)
        send(.list(.resized(pageHeight: pageHeight)))
        send(.started)
    }

    /// Sends a message; store reads it starts are answered at once unless `answerReads` is false.
    /// Answers the effects left over from this message alone.
    @discardableResult
    public mutating func send(_ message: AppMessage, answerReads: Bool = true) -> [Effect] {
        var left: [Effect] = []
        var queue = state.update(message)
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            remember(effect)
            guard answerReads, let answer = answer(effect) else {
                if answer(effect) != nil { unansweredReads.append(effect) } else { left.append(effect) }
                continue
            }
            queue += state.update(answer)
        }
        effects += left
        return left
    }

    /// The store changed (`items` did): the live queries answer again, as a commit makes them.
    public mutating func storeChanged() {
        for query in liveQueries {
            if let answer = answer(query) { send(answer) }
        }
    }

    /// Answers the reads held back by `send(_:answerReads: false)`, oldest first.
    public mutating func answerHeldReads() {
        let held = unansweredReads
        unansweredReads = []
        for effect in held {
            if let answer = answer(effect) { send(answer) }
        }
    }

    /// Types keys one by one.
    public mutating func press(_ keys: KeyEvent...) { for key in keys { send(.key(key)) } }

    /// Types text character by character.
    public mutating func type(_ text: String) { for c in text { send(.key(.character(c))) } }

    /// Texts of the loaded rows on screen.
    public var visibleTexts: [String] { state.list.visibleRows.compactMap { $0?.item.text } }

    private mutating func remember(_ effect: Effect) {
        switch effect {
        case .listView(.observeWindow): liveQueries.removeAll { if case .listView(.observeWindow) = $0 { true } else { false } }
        case .listView(.observeCount): liveQueries.removeAll { if case .listView(.observeCount) = $0 { true } else { false } }
        default: return
        }
        liveQueries.append(effect)
    }

    private func answer(_ effect: Effect) -> AppMessage? {
        switch effect {
        case .listView(.observeWindow(let request)):
            let rows = InMemoryEnvironment.matching(byId, request.filterText, showCompleted: request.showCompleted,
                                                    showHeldBack: request.showHeldBack, scope: request.scope, context: request.context)
            return .list(.windowLoaded(ListWindow(request: request, items: request.rows(of: rows))))
        case .listView(.observeCount(let request)):
            let rows = InMemoryEnvironment.matching(byId, request.filterText, showCompleted: request.showCompleted,
                                                    showHeldBack: request.showHeldBack, scope: request.scope, context: request.context)
            return .list(.counted(total: rows.count, generation: request.generation))
        case .items(.countSubtasks(let item, let intent)):
            var level: Set<String> = [item.id]
            var seen = level
            var subtasks: [TodoItem] = []
            while !level.isEmpty {
                let children = items.filter { ($0.parentId.map(level.contains) ?? false) && !seen.contains($0.id) }
                subtasks += children
                level = Set(children.map(\.id))
                seen.formUnion(level)
            }
            return .items(.subtasksCounted(item, intent, count: subtasks.filter { intent == .delete || !$0.complete }.count))
        default:
            return nil
        }
    }

    private var byId: [String: TodoItem] { Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }) }
}

extension ListWindowRequest {
    /// The rows of the whole list `all` this request covers, in list order, as the store reads them.
    public func rows(of all: [TodoItem]) -> [TodoItem] {
        fromEnd ? Array(all.reversed().dropFirst(offset).prefix(limit).reversed()) : Array(all.dropFirst(offset).prefix(limit))
    }
}
