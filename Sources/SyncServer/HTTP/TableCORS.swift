import HTTPTypes
import Hummingbird
import NIOCore

/// CORS for browser clients of the table protocol: Hummingbird's `CORSMiddleware`, configured.
enum TableCORS {
    /// Answers preflights (any origin, echoed, with `Vary: Origin`) and marks responses readable.
    static func middleware<Context: RequestContext>() -> CORSMiddleware<Context> {
        CORSMiddleware(
            allowOrigin: .originBased,
            // Hummingbird sends a fixed list, not the request's own: every header a client of the protocol sends.
            allowHeaders: [.accept, .authorization, .contentType, .ifMatch,
                           .zumoAPIVersion, .zumoFeatures, .zumoVersion, .zumoInstallationID],
            allowMethods: [.get, .post, .patch, .delete, .options],
            maxAge: .seconds(600))
    }
}

/// `Access-Control-Expose-Headers: ETag, Link` on cross-origin responses, so a browser client can
/// read an item's version and the next page. Hummingbird's `CORSMiddleware` sends it only on
/// preflight answers, where browsers ignore it.
struct CORSExposeHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.headers.contains(.origin) { response.headers[.accessControlExposeHeaders] = "ETag, Link" }
        return response
    }
}
