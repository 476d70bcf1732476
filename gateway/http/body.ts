/**
 * Request bodies: read up to MAX_BODY_BYTES (413 beyond) and parsed as JSON whatever the Content-Type says
 * (upstream clients often send none). JSON text is UTF-8: other bytes are a 400, never replaced by U+FFFD (that
 * would store text the client never sent). Malformed JSON is a 400 that says where it broke.
 */
import type { IncomingMessage } from 'node:http'
import { CatalogError, fail } from '../../model/errors.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** Reads and parses the body; an empty body is `undefined`. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN)
  if (declared > maxBytes) {
    req.resume()
    throw new CatalogError('PAYLOAD_TOO_LARGE', `the request body has ${declared} bytes; the limit is ${maxBytes}`)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      req.resume()
      throw new CatalogError('PAYLOAD_TOO_LARGE', `the request body exceeds the limit of ${maxBytes} bytes`)
    }
    chunks.push(chunk)
  }
  let text: string
  try {
    text = utf8.decode(Buffer.concat(chunks))
  } catch {
    throw fail('MALFORMED_JSON', 'the request body is not UTF-8 text (JSON must be UTF-8)', [{ path: 'body', message: 'not UTF-8' }])
  }
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch (err) {
    throw fail('MALFORMED_JSON', `the request body is not valid JSON: ${(err as Error).message}`, [{ path: 'body', message: (err as Error).message }])
  }
}
