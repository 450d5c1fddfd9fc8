@testable import CarouselMedia
import Testing
@testable import CarouselSources

/// WebDAV answers read as the servers write them (Nextcloud's and Apache's prefixes and
/// property statuses), and hostile ones refused in one line.
@Suite struct DAVListingTests {
    /// Nextcloud's shape (sabre/dav): `d:` for DAV:, ETags quoted with entities, the
    /// properties a folder lacks in a propstat of their own with 404.
    static let nextcloud = """
        <?xml version="1.0"?>
        <d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
         <d:response>
          <d:href>/remote.php/dav/files/anna/Photos/</d:href>
          <d:propstat>
           <d:prop>
            <d:resourcetype><d:collection/></d:resourcetype>
            <d:getetag>&quot;6564d9c3b1f7a&quot;</d:getetag>
            <d:getlastmodified>Mon, 27 Nov 2023 18:03:15 GMT</d:getlastmodified>
           </d:prop>
           <d:status>HTTP/1.1 200 OK</d:status>
          </d:propstat>
          <d:propstat>
           <d:prop><d:getcontentlength/><d:getcontenttype/></d:prop>
           <d:status>HTTP/1.1 404 Not Found</d:status>
          </d:propstat>
         </d:response>
         <d:response>
          <d:href>/remote.php/dav/files/anna/Photos/Tokyo%20at%20night.jpg</d:href>
          <d:propstat>
           <d:prop>
            <d:resourcetype/>
            <d:getcontentlength>2481733</d:getcontentlength>
            <d:getcontenttype>image/jpeg</d:getcontenttype>
            <d:getetag>&quot;0b1c5e0a3f5c9d&quot;</d:getetag>
            <d:getlastmodified>Sat, 04 Nov 2023 09:12:44 GMT</d:getlastmodified>
           </d:prop>
           <d:status>HTTP/1.1 200 OK</d:status>
          </d:propstat>
         </d:response>
         <d:response>
          <d:href>/remote.php/dav/files/anna/Photos/2023/</d:href>
          <d:propstat>
           <d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop>
           <d:status>HTTP/1.1 200 OK</d:status>
          </d:propstat>
         </d:response>
        </d:multistatus>
        """

    /// Apache mod_dav's shape: `D:` for DAV:, and the live properties under a second prefix
    /// (`lp1:`) bound to the same namespace on each response.
    static let apache = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:multistatus xmlns:D="DAV:">
        <D:response xmlns:lp2="http://apache.org/dav/props/" xmlns:lp1="DAV:">
        <D:href>/Photos/07-forest.jpg</D:href>
        <D:propstat>
        <D:prop>
        <lp1:resourcetype/>
        <lp1:getcontentlength>75949</lp1:getcontentlength>
        <lp1:getlastmodified>Fri, 27 Nov 2026 23:14:14 GMT</lp1:getlastmodified>
        <lp1:getetag>"128ad-6614a37f05696"</lp1:getetag>
        <lp2:executable>F</lp2:executable>
        </D:prop>
        <D:status>HTTP/1.1 200 OK</D:status>
        </D:propstat>
        </D:response>
        </D:multistatus>
        """

    @Test func nextcloudsAnswerGivesItsFoldersAndFiles() throws {
        let listing = try DAVListing(parsing: Array(Self.nextcloud.utf8))
        #expect(listing.entries.map(\.href) == ["/remote.php/dav/files/anna/Photos/", "/remote.php/dav/files/anna/Photos/Tokyo%20at%20night.jpg",
                                                "/remote.php/dav/files/anna/Photos/2023/"])
        #expect(listing.entries.map(\.isFolder) == [true, false, true])
        let file = listing.entries[1]
        #expect(file.etag == "\"0b1c5e0a3f5c9d\"")
        #expect(file.length == 2_481_733)
        #expect(file.contentType == "image/jpeg")
        #expect(file.lastModified == "Sat, 04 Nov 2023 09:12:44 GMT")
        // The 404 propstat's empty properties are not taken for values.
        #expect(listing.entries[0].length == nil && listing.entries[0].etag == "\"6564d9c3b1f7a\"")
    }

    @Test func apachesSecondPrefixForDAVIsTheSameNamespace() throws {
        let listing = try DAVListing(parsing: Array(Self.apache.utf8))
        #expect(listing.entries == [DAVListing.Entry(href: "/Photos/07-forest.jpg", isFolder: false, length: 75949,
                                                     etag: "\"128ad-6614a37f05696\"", lastModified: "Fri, 27 Nov 2026 23:14:14 GMT")])
    }

    /// An element of another namespace named like DAV's is not DAV's.
    @Test func onlyDAVsNamespaceCounts() throws {
        let xml = """
            <m xmlns="DAV:" xmlns:x="urn:other"><response><href>/a.jpg</href><propstat><prop>\
            <x:resourcetype><collection/></x:resourcetype><x:getetag>no</x:getetag></prop>\
            <status>HTTP/1.1 200 OK</status></propstat></response></m>
            """
        #expect(throws: XMLScanner.Problem.self) { try DAVListing(parsing: Array(xml.utf8)) }
        let dav = xml.replacingOccurrences(of: "<m ", with: "<multistatus ").replacingOccurrences(of: "</m>", with: "</multistatus>")
        let listing = try DAVListing(parsing: Array(dav.utf8))
        #expect(listing.entries == [DAVListing.Entry(href: "/a.jpg")])
    }

    @Test func textWithReferencesCDATAAndCommentsReadsAsWritten() throws {
        let xml = """
            <?xml version="1.0"?><!-- a comment --><d:multistatus xmlns:d="DAV:"><d:response>\
            <d:href>/Fotos/Caf&#xE9; &amp; <![CDATA[<Bar>]]>&#26481;&#20140;.jpg</d:href></d:response></d:multistatus>
            """
        let listing = try DAVListing(parsing: Array(xml.utf8))
        #expect(listing.entries.map(\.href) == ["/Fotos/Café & <Bar>東京.jpg"])
    }

    @Test(arguments: [
        ("<!DOCTYPE d [<!ENTITY a \"aaaa\">]><d:multistatus xmlns:d=\"DAV:\">&a;</d:multistatus>", "document type"),
        ("<d:multistatus xmlns:d=\"DAV:\"><d:response>", "ends inside"),
        ("<d:multistatus xmlns:d=\"DAV:\"></d:response>", "closes nothing"),
        ("<x:multistatus xmlns:d=\"DAV:\"/>", "not declared"),
        ("<html><body>Login</body></html>", "not a WebDAV answer"),
        ("<d:multistatus xmlns:d=\"DAV:\">&bogus;</d:multistatus>", "unknown entity"),
        ("<d:multistatus xmlns:d=\"DAV:\">&#0;</d:multistatus>", "to no character"),
        ("<d:multistatus xmlns:d=\"DAV:\"/><d:multistatus xmlns:d=\"DAV:\"/>", "second element"),
        ("", "holds no element"),
        ("just text", "outside"),
        ("<d:multistatus xmlns:d=\"DAV:\" a=b/>", "without quotes"),
    ])
    func brokenOrHostileAnswersAreRefusedInOneLine(_ xml: String, _ said: String) {
        do {
            _ = try DAVListing(parsing: Array(xml.utf8))
            Issue.record("read: \(xml)")
        } catch {
            #expect(error.description.contains(said), "\(error.description)")
        }
    }

    @Test func nestingIsBounded() {
        let deep = "<d:multistatus xmlns:d=\"DAV:\">" + String(repeating: "<a>", count: 100_000)
        do {
            _ = try DAVListing(parsing: Array(deep.utf8))
            Issue.record("read")
        } catch {
            #expect(error.description.contains("nested deeper than \(XMLScanner.maxDepth)"))
        }
    }

    @Test func aTextLongerThanTheBoundIsRefused() {
        let long = "<d:multistatus xmlns:d=\"DAV:\"><d:href>" + String(repeating: "a", count: XMLScanner.maxToken + 1) + "</d:href></d:multistatus>"
        #expect(throws: XMLScanner.Problem.self) { try DAVListing(parsing: Array(long.utf8)) }
    }
}
