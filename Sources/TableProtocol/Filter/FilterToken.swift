/// One lexical token of a `$filter` expression.
public struct FilterToken: Sendable, Hashable {
    /// What the token is.
    public var kind: Kind
    /// Zero-based offset (in Unicode scalars) of the token's first character.
    public var position: Int

    /// Creates a token at a source position.
    public init(_ kind: Kind, at position: Int) {
        self.kind = kind
        self.position = position
    }

    /// The kinds of token.
    public enum Kind: Sendable, Hashable {
        /// A member or function name: `[A-Za-z_][A-Za-z0-9_]*` that is not a keyword.
        case identifier(String)
        /// A lowercase reserved word.
        case keyword(FilterKeyword)
        /// A single-quoted string, with `''` already unescaped.
        case string(String)
        /// An unsigned number (suffix dropped); a leading `-` is a separate token.
        case number(Double)
        /// A `datetime'…'` or `datetimeoffset'…'` literal, normalised to UTC.
        case dateTime(FilterDateTime)
        /// `-`
        case minus
        /// `(`
        case openParen
        /// `)`
        case closeParen
        /// `,`
        case comma
        /// End of input (position is the text length).
        case end
    }
}

/// The reserved words of the filter language (lowercase, case-sensitive).
public enum FilterKeyword: String, Sendable, Hashable, CaseIterable {
    case and, or, not
    case eq, ne, gt, ge, lt, le
    case add, sub, mul, div, mod
    case null = "null", `true` = "true", `false` = "false"

    /// The binary operator this keyword spells, if any.
    public var binaryOperator: BinaryOperator? { BinaryOperator(rawValue: rawValue) }
}
