/// How a cell is drawn.
public struct CellStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = CellStyle(rawValue: 1 << 0)
    public static let reverse = CellStyle(rawValue: 1 << 1)
    public static let dim = CellStyle(rawValue: 1 << 2)
    public static let underline = CellStyle(rawValue: 1 << 3)
    /// Colour roles; a terminal without colour (or with NO_COLOR) ignores them.
    public static let accent = CellStyle(rawValue: 1 << 4)
    public static let warning = CellStyle(rawValue: 1 << 5)
    public static let success = CellStyle(rawValue: 1 << 6)
}

/// One screen cell: a grapheme (empty for the right half of a wide character) and its style.
public struct Cell: Sendable, Hashable {
    /// What is drawn; "" when the left neighbour is a wide character covering this cell.
    public var text: String
    /// How it is drawn.
    public var style: CellStyle

    /// A blank cell.
    public static let blank = Cell(text: " ", style: [])
}

/// A grid of cells that renderers draw into and the terminal copies to the screen.
public struct Frame: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Cells row by row.
    public private(set) var cells: [Cell]

    /// A blank frame.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at a position.
    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// Draws text from (x, y), clipped at `x + maxWidth` and the right edge; answers the columns used.
    /// A wide character that does not fit is not drawn half.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = [], maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x >= 0 else { return 0 }
        let limit = min(width, x + (maxWidth ?? width))
        var column = x
        for character in text {
            let w = DisplayWidth.of(character)
            if w == 0 {
                if column > x { cells[y * width + column - 1].text.append(character) }
                continue
            }
            guard column + w <= limit else { break }
            cells[y * width + column] = Cell(text: String(character), style: style)
            if w == 2 { cells[y * width + column + 1] = Cell(text: "", style: style) }
            column += w
        }
        return column - x
    }

    /// Paints a style over a run of cells (e.g. the selected row).
    public mutating func paint(_ style: CellStyle, x: Int, y: Int, width count: Int) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(width, x + count) { cells[y * width + column].style.formUnion(style) }
    }

    /// Fills a rectangle with blanks of a style.
    public mutating func clear(x: Int, y: Int, width w: Int, height h: Int, style: CellStyle = []) {
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) { cells[row * width + column] = Cell(text: " ", style: style) }
        }
    }

    /// The frame as text, one line per row, trailing spaces removed (for tests and logs).
    public var text: String {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += self[x, y].text }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
