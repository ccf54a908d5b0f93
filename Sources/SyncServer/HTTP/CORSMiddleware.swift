import HTTPTypes
import Hummingbird
import NIOCore

/// Answers CORS preflight requests and marks responses readable by any origin.
struct TableCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let origin = request.headers[.origin] ?? "*"
        if request.method == .options {
            var headers: HTTPFields = [
                .accessControlAllowOrigin: origin,
                .accessControlAllowMethods: "GET, POST, PATCH, DELETE, OPTIONS",
                .accessControlAllowHeaders: request.headers[.accessControlRequestHeaders]
                    ?? "Content-Type, If-Match, ZUMO-API-VERSION, X-ZUMO-FEATURES, X-ZUMO-VERSION, X-ZUMO-INSTALLATION-ID",
                .accessControlMaxAge: "600",
            ]
            if origin != "*" { headers[.vary] = "Origin" }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        if request.headers[.origin] != nil {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "ETag, Link"
        }
        return response
    }
}
