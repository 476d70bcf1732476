/** Baseline process: a bare Restify route answering a constant, the ceiling of any route on this machine. */
import restify from 'restify'

const server = restify.createServer()
const body = JSON.stringify({ value: 'urn:svc:corpuser:constant' })
server.get('/constant', (_req, res, next) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
  next()
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`)
})
