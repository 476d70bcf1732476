/**
 * Redis connections. Reads fail fast when Redis is unreachable (the API answers 503); queue and worker
 * connections wait for Redis to come back (BullMQ requires `maxRetriesPerRequest: null`).
 */
import { Redis } from 'ioredis'

/** A connection for API reads and writes: a command fails after a few reconnection attempts. */
export function connectForRequests(url: string, name = 'svc'): Redis {
  return quiet(new Redis(url, { connectionName: name, maxRetriesPerRequest: 2, enableAutoPipelining: true }))
}

/** A connection for queues and workers: commands wait for Redis to come back. */
export function connectForQueues(url: string, name = 'svc-queue'): Redis {
  return quiet(new Redis(url, { connectionName: name, maxRetriesPerRequest: null, enableReadyCheck: true }))
}

/**
 * Connection errors surface where commands fail (503 to clients, retries in workers); the connection's own error
 * events are expected while Redis restarts and are not worth an unhandled-error report each.
 */
function quiet(redis: Redis): Redis {
  redis.on('error', () => {})
  return redis
}

/** Whether the server has the search module loaded (MODULE LIST). */
export async function hasSearchModule(redis: Redis): Promise<boolean> {
  const modules = (await redis.call('MODULE', 'LIST')) as unknown[][]
  return modules.some((entry) => {
    const fields = entry as unknown[]
    const i = fields.findIndex((f) => String(f) === 'name')
    const name = i >= 0 ? String(fields[i + 1]).toLowerCase() : ''
    return name === 'search' || name === 'ft'
  })
}
