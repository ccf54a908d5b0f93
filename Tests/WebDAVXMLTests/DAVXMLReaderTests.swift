import Foundation
import Testing
import WebDAVXML

/// The WebDAV body reader: namespaces resolved, references decoded, and every malformed or
/// unbounded body refused with a message.
@Suite struct DAVXMLReaderTests {
    private func read(_ text: String) throws -> DAVElement { try DAVXMLReader.read(Data(text.utf8)) }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try DAVXMLReader.read(Data(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func prefixedAndDefaultNamespacesResolve() throws {
        let root = try read(#"<?xml version="1.0"?><propfind xmlns="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><prop><displayname/><c:calendar-data/></prop></propfind>"#)
        #expect(root.name == .dav("propfind"))
        #expect(root.child(.dav("prop"))?.children.map(\.name) == [.dav("displayname"), .caldav("calendar-data")])
    }

    @Test func aPrefixDeclaredInsideAnElementHoldsOnlyThere() throws {
        let root = try read(#"<d:a xmlns:d="DAV:"><x:b xmlns:x="urn:one"/><d:c/></d:a>"#)
        #expect(root.children.map(\.name) == [QName("urn:one", "b"), .dav("c")])
        #expect(refusal(#"<d:a xmlns:d="DAV:"><x:b xmlns:x="urn:one"/><x:c/></d:a>"#)?.contains("prefix x is not declared") == true)
    }

    @Test func referencesAndCDATAReadAsText() throws {
        let root = try read(#"<d:a xmlns:d="DAV:" n="&quot;1&quot;">&lt;x&gt; &amp; &#233;&#x1F600;<![CDATA[<raw & kept>]]></d:a>"#)
        #expect(root.text == "<x> & é😀<raw & kept>")
        #expect(root.attributes["n"] == "\"1\"")
    }

    @Test func commentsAndProcessingInstructionsAreSkipped() throws {
        let root = try read("<?xml version=\"1.0\"?>\n<!-- a comment --><d:a xmlns:d=\"DAV:\"><?pi x?><!-- <d:b/> --></d:a>\n")
        #expect(root.children.isEmpty)
    }

    @Test func lineBreaksOfCRLFAroundTheDocumentElementAreWhitespace() throws {
        // python-caldav's bodies: the declaration, then CRLF (one Character in Swift).
        let root = try read("<?xml version='1.0' encoding='utf-8'?>\r\n<D:propfind xmlns:D=\"DAV:\"><D:prop/></D:propfind>\r\n")
        #expect(root.name == .dav("propfind"))
        #expect(refusal("<d:a xmlns:d=\"DAV:\"/>\r\nx")?.contains("text outside the document element") == true)
    }

    @Test(arguments: [
        ("<d:a xmlns:d=\"DAV:\">&lol;</d:a>", "not defined"),
        ("<d:a xmlns:d=\"DAV:\"><d:b></d:a>", "closes"),
        ("<d:a xmlns:d=\"DAV:\">", "not closed"),
        ("<d:a xmlns:d=\"DAV:\"/><d:b xmlns:d=\"DAV:\"/>", "content after"),
        ("<a x='1' x='2'/>", "appears twice"),
        ("<a>&#0;</a>", "not a character"),
        ("text", "outside the document element"),
        ("", "no document element"),
    ])
    func aMalformedBodyIsRefusedSayingWhy(_ text: String, _ reason: String) {
        let message = refusal(text)
        #expect(message?.contains(reason) == true, "\(message ?? "read")")
    }

    @Test func aDocumentTypeIsNeverRead() {
        #expect(refusal(#"<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>"#)?.contains("document type declaration") == true)
    }

    @Test func depthAndElementCountAreBounded() {
        let deep = String(repeating: "<a>", count: DAVXMLReader.maximumDepth + 1) + String(repeating: "</a>", count: DAVXMLReader.maximumDepth + 1)
        #expect(refusal(deep)?.contains("nests deeper") == true)
        let wide = "<a>" + String(repeating: "<b/>", count: DAVXMLReader.maximumElements) + "</a>"
        #expect(refusal(wide)?.contains("more than") == true)
    }

    @Test func aBodyOverTheByteLimitIsTooLarge() {
        do {
            _ = try DAVXMLReader.read(Data(repeating: 0x20, count: DAVXMLReader.maximumBytes + 1))
            Issue.record("read")
        } catch {
            #expect(error.tooLarge)
        }
    }

    /// The 20,000-attribute PROPFIND of the bounded-work issue: refused at the limit, not read.
    @Test func anElementWithTwentyThousandAttributesIsRefused() {
        let attributes = (0..<20_000).map { " a\($0)=\"v\"" }.joined()
        let message = refusal("<propfind xmlns=\"DAV:\"\(attributes)/>")
        #expect(message?.contains("more than \(DAVXMLReader.maximumAttributes) attributes") == true)
    }

    @Test func anElementAtTheAttributeLimitIsRead() throws {
        let attributes = (1..<DAVXMLReader.maximumAttributes).map { " a\($0)=\"v\"" }.joined()
        let root = try read("<propfind xmlns=\"DAV:\"\(attributes)/>")
        #expect(root.attributes.count == DAVXMLReader.maximumAttributes - 1)
    }

    @Test func namespaceDeclarationsAreBoundedAcrossTheBody() {
        let declaring = String(repeating: #"<b xmlns:p="urn:p" xmlns:q="urn:q"/>"#, count: DAVXMLReader.maximumNamespaceDeclarations / 2 + 1)
        #expect(refusal("<a>\(declaring)</a>")?.contains("namespace declarations") == true)
    }

    @Test func aRepeatedAttributeIsRefused() {
        #expect(refusal(#"<a x="1" y="2" x="3"/>"#)?.contains("the attribute x appears twice") == true)
    }
}
