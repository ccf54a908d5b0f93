import Foundation
import WebDAVXML

/// Bytes → `DAVXMLReader.read` (a PROPFIND, PROPPATCH, REPORT, MKCALENDAR or MKCOL body). Holds:
/// a refusal is a `DAVXMLError` with a message (typed throws), never a trap; a document type
/// declaration is always refused (no entity is ever defined); a tree that reads stays within the
/// reader's documented bounds of depth and elements.
public enum WebDAVXMLFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        let bytes = Data(input)
        let root: DAVElement
        do {
            root = try DAVXMLReader.read(bytes)
        } catch {
            guard !error.message.isEmpty else { return FuzzFailure("a refusal without a message") }
            return nil
        }
        if DAVXMLReader.declaresDocumentType(bytes) { return FuzzFailure("a body declaring a document type was read") }
        var elements = 0
        var tooDeep = false
        func walk(_ element: DAVElement, depth: Int) {
            elements += 1
            if depth > DAVXMLReader.maximumDepth { tooDeep = true; return }
            for child in element.children { walk(child, depth: depth + 1) }
        }
        walk(root, depth: 1)
        guard !tooDeep else { return FuzzFailure("a tree deeper than \(DAVXMLReader.maximumDepth)") }
        guard elements <= DAVXMLReader.maximumElements else { return FuzzFailure("\(elements) elements, over \(DAVXMLReader.maximumElements)") }
        return nil
    }
}
