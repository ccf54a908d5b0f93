import HTTPTypes
import Hummingbird
import NIOCore

/// Requires `ZUMO-API-VERSION: 2.0.x` (header or query parameter, name in any case) on table routes.
struct APIVersionMiddleware<Context: RequestContext>: RouterMiddleware {
    static var message: String {
        "An invalid API version was specified in the request, this request needs to specify a ZUMO-API-VERSION of 2.0.0."
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .options || !request.uri.path.hasPrefix("/tables") || Self.hasValidVersion(request) else {
            return JSONResponse.error(.badRequest, Self.message)
        }
        return try await next(request, context)
    }

    static func hasValidVersion(_ request: Request) -> Bool {
        if let header = request.headers[.zumoAPIVersion] { return isValid(header) }
        let parameter = QueryString.items(request.uri.query).first { $0.name.lowercased() == "zumo-api-version" }
        return parameter.map { isValid($0.value ?? "") } ?? false
    }

    static func isValid(_ version: String) -> Bool {
        if version == "2.0.0" { return true }  // what every client sends; the rest is parsed
        let parts = version.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == "2" && parts[1] == "0" && !parts[2].isEmpty && parts[2].allSatisfy(\.isNumber)
    }
}

import Foundation
