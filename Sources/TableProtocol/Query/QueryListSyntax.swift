/// Splits comma-separated query option lists (`$orderby`, `$select`) into whitespace-separated words.
enum QueryListSyntax {
    struct Word {
        var text: String
        var position: Int
    }

    struct Item {
        /// Offset just after the preceding comma (or 0), for "member expected" errors.
        var position: Int
        var words: [Word]
    }

    /// The items of a list; whitespace-only text has no items, an empty item has no words.
    static func items(_ text: String) -> [Item] {
        var items: [Item] = []
        var current = Item(position: 0, words: [])
        var word = String.UnicodeScalarView()
        var wordStart = 0
        func endWord() {
            if !word.isEmpty { current.words.append(Word(text: String(word), position: wordStart)) }
            word = String.UnicodeScalarView()
        }
        for (offset, c) in text.unicodeScalars.enumerated() {
            if c == "," {
                endWord()
                items.append(current)
                current = Item(position: offset + 1, words: [])
            } else if isWhitespace(c) {
                endWord()
            } else {
                if word.isEmpty { wordStart = offset }
                word.append(c)
            }
        }
        endWord()
        if !items.isEmpty || !current.words.isEmpty { items.append(current) }
        return items
    }

    /// The validated member name that an item starts with.
    static func member(of item: Item) throws(FilterParseError) -> Word {
        guard let first = item.words.first else { throw FilterParseError("Member name expected", at: item.position) }
        guard MemberName.isValid(first.text) else {
            throw FilterParseError("Invalid member name '\(first.text.prefix(40))'", at: first.position)
        }
        return first
    }
}
