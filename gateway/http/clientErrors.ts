/**
 * Requests Node's HTTP parser refuses before any route runs: a request line or headers over its limit (16 KiB)
 * get 431, other unparsable requests 400, each with the catalogue's error body (Node alone would answer with an
 * empty body). The connection is closed afterwards: the parser cannot go on reading it.
 */
import type { Duplex } from 'node:stream'
import { CatalogError } from '../../model/errors.ts'

/** The catalogue error for a parser error code (`HPE_HEADER_OVERFLOW`, `HPE_INVALID_METHOD`, ...). */
export function clientErrorFor(code: string | undefined): CatalogError {
  if (code === 'HPE_HEADER_OVERFLOW') return new CatalogError('HEADERS_TOO_LARGE', 'the request line or headers exceed 16 KiB (a long urn belongs in a POST body)')
  return new CatalogError('INVALID_REQUEST', 'the request is not valid HTTP/1.1')
}

/** The raw HTTP answer for an error: status line, headers, JSON body; the connection closes. */
export function rawAnswer(err: CatalogError): string {
  const body = JSON.stringify(err.toBody())
  const reason = err.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'
  return `HTTP/1.1 ${err.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
}

/** A `clientError` listener for the HTTP server. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  socket.end(rawAnswer(clientErrorFor(err.code)))
}
