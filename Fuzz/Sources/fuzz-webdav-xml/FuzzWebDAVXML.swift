import Foundation
import WebDAVXML

/// Bytes → `DAVXMLReader.read` (a PROPFIND, PROPPATCH, REPORT, MKCALENDAR or MKCOL body). Holds:
/// a refusal is a `DAVXMLError` with a message (typed throws), never a trap; a document type
/// declaration is always refused (no entity is ever defined); a tree that reads stays within the
/// reader's documented bounds of depth and elements.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebDAVXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let root: DAVElement
    do {
        root = try DAVXMLReader.read(bytes)
    } catch {
        guard !error.message.isEmpty else { fatalError("a refusal without a message") }
        return 0
    }
    if DAVXMLReader.declaresDocumentType(bytes) { fatalError("a body declaring a document type was read") }
    var elements = 0
    func walk(_ element: DAVElement, depth: Int) {
        elements += 1
        guard depth <= DAVXMLReader.maximumDepth else { fatalError("a tree deeper than \(DAVXMLReader.maximumDepth)") }
        for child in element.children { walk(child, depth: depth + 1) }
    }
    walk(root, depth: 1)
    guard elements <= DAVXMLReader.maximumElements else { fatalError("\(elements) elements, over \(DAVXMLReader.maximumElements)") }
    return 0
}
