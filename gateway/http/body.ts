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
  const body = await readBytes(req, maxBytes)
  let text: string
  try {
    text = utf8.decode(body)
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

/**
 * The body's bytes, at most `maxBytes` (413 beyond). Read by its events: an async iterator over the stream cost
 * each request a promise and several objects per chunk, which the gateway's young-generation collections copied
 * while it waited for its answer.
 */
function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (err?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose)
      if (err) reject(err)
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        done(new CatalogError('PAYLOAD_TOO_LARGE', `the request body exceeds the limit of ${maxBytes} bytes`))
        req.resume()
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => done()
    // The client went away before the body ended: nothing to answer.
    const onClose = () => { if (!req.complete) done(Object.assign(new Error('the request was aborted before its body ended'), { code: 'ECONNRESET' })) }
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose)
  })
}
