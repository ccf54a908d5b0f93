import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import TableProtocol

/// Turns every failure into the protocol's JSON error shape; nothing else ever reaches a client.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as TableError {
            switch error {
            case .conflict(let item), .preconditionFailed(let item):
                return JSONResponse.item(item, status: .init(code: error.status))
            case .unauthorized:
                var response = JSONResponse.error(.unauthorized, error.message)
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            case .spaceNotFound, .readOnlySpace, .itemMoved:
                return JSONResponse.make(.init(code: error.status), .object(error.body))
            case .tooManyRequests(let seconds), .busy(_, let seconds):
                var response = JSONResponse.error(.tooManyRequests, error.message)
                response.headers[.retryAfter] = String(seconds)
                return response
            case .overloaded(_, let seconds):
                var response = JSONResponse.error(.serviceUnavailable, error.message)
                response.headers[.retryAfter] = String(seconds)
                return response
            default:
                return JSONResponse.error(.init(code: error.status), error.message)
            }
        } catch is NIOTooManyBytesError {
            return JSONResponse.error(.contentTooLarge, "The request body is too large")
        } catch let error as HTTPParserError {
            // A body the parser refused midway (a bad chunk size): the client's fault, and the
            // connection cannot carry another request.
            var response = JSONResponse.error(.badRequest, "The request is not valid HTTP (\(error))")
            response.headers[.connection] = "close"
            return response
        } catch let error as HTTPError {
            return JSONResponse.error(error.status, error.body ?? error.status.reasonPhrase)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return JSONResponse.error(.internalServerError, "The server could not complete the request")
        }
    }
}
