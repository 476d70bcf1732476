/**
 * The redisearch engine's connection (node-redis, which @redis/search and redis-om build on), to one server or to
 * a cluster. Every RediSearch command is sent with the key that routes it (an index name carrying its shard's
 * hash tag), so on a cluster it reaches the node that holds that shard's documents; no coordinator is needed.
 * Commands are built and their replies parsed by @redis/search's own command definitions.
 */
import { createClient, createCluster } from '@redis/client'
import searchModule from '@redis/search'
import { socketPathOf, type RedisTarget } from '../../store/redis.ts'
import { retryWhileMoving, type IndexPlacement } from './placement.ts'

// @redis/search is CommonJS: its commands are the `default` of the module object Node hands to ESM.
export const FT = searchModule.default

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Command = { transformArguments: (...args: any[]) => unknown[]; transformReply?: (...args: any[]) => unknown }

type ClusterClient = ReturnType<typeof createCluster>

/**
 * A cluster client. Its node connections do not queue commands while offline (`disableOfflineQueue`): a command
 * routed to a node that left the cluster (its slots moved off, then `del-node`) or is restarting fails at once,
 * and the caller learns the map again (`relearn`), instead of waiting for a node that may never come back.
 */
function clusterClient(rootNodes: string[]): ClusterClient {
  const cluster = createCluster({
    rootNodes: rootNodes.map((node) => ({ url: `redis://${node}` })),
    defaults: { disableOfflineQueue: true, socket: { connectTimeout: 2000 } },
  })
  cluster.on('error', () => {})
  return cluster
}

export class FtConnection {
  private readonly send: (routingKey: string, readOnly: boolean, args: string[]) => Promise<unknown>
  private readonly connect: () => Promise<unknown>
  /** Closes the sockets at once. Not QUIT: node-redis queues QUIT behind a reconnection, and a node removed from
   * the cluster (del-node) never comes back, so QUIT would wait forever. */
  private readonly hangUp: () => Promise<unknown>
  /** On a cluster: learns the cluster's map again, on a new client (callers at the same time share one). */
  readonly relearn: () => Promise<unknown>
  /** The connection being or having been made (every caller awaits the same one; null: closed). */
  private opened: Promise<unknown> | null = null

  constructor(target: RedisTarget) {
    if (target.redisCluster.length > 0) {
      let cluster = clusterClient(target.redisCluster)
      let relearning: Promise<unknown> | undefined
      this.send = (key, readOnly, args) => cluster.sendCommand(key, readOnly, args)
      this.connect = () => cluster.connect()
      this.hangUp = () => cluster.disconnect()
      // node-redis learns the map again on MOVED only; a node gone before it answered one is learnt here: a new
      // client starts from the masters the old one knew, then the configured seeds (any one that answers will do).
      this.relearn = () => relearning ??= (async () => {
        const old = cluster
        const next = clusterClient([...new Set([...old.masters.map((m) => m.address), ...target.redisCluster])])
        await next.connect()
        cluster = next
        await old.disconnect().catch(() => {})
      })().finally(() => { relearning = undefined })
    } else {
      const path = socketPathOf(target.redisUrl)
      const client = createClient(path ? { socket: { path } } : { url: target.redisUrl })
      client.on('error', () => {})
      this.send = (_key, _readOnly, args) => client.sendCommand(args)
      this.connect = () => client.connect()
      this.hangUp = () => client.disconnect()
      this.relearn = async () => {}
    }
  }

  async ensureOpen(): Promise<void> {
    // A failed first connection is tried again by the next caller.
    this.opened ??= this.connect().catch((err: unknown) => { this.opened = null; throw err })
    await this.opened
  }

  /** On a cluster: what makes a missing index appear where its slot is (placement.ts); queries retry meanwhile. */
  placement: IndexPlacement | undefined

  /** Sends raw arguments, routed by `routingKey`. */
  async raw(routingKey: string, args: string[], readOnly = true): Promise<unknown> {
    await this.ensureOpen()
    const placement = this.placement
    if (!placement || !readOnly || args[0] === 'FT.INFO') return this.send(routingKey, readOnly, args)
    return retryWhileMoving(() => this.send(routingKey, readOnly, args), () => placement.placeNow(), this.relearn)
  }

  /** Runs an @redis/search command on `index` (its arguments after the index name), its reply transformed. */
  async ft<C extends Command>(command: C, index: string, ...args: unknown[]): Promise<ReturnType<NonNullable<C['transformReply']>>> {
    const built = (command.transformArguments as (...a: unknown[]) => string[] & { preserve?: unknown })(index, ...args)
    const reply = await this.raw(index, built, (command as unknown) !== FT.CREATE)
    // `preserve` is what node-redis hands transformReply besides the reply (e.g. FT.SEARCH without document fields).
    return (command.transformReply ? (command.transformReply as (r: unknown, p: unknown) => unknown)(reply, built.preserve) : reply) as ReturnType<NonNullable<C['transformReply']>>
  }

  /**
   * What redis-om needs of a connection to create an index (it reads and writes the index's schema hash, whose
   * name carries the same hash tag as the index); `suffixTries` names the TAG fields of an index that get a suffix
   * trie.
   */
  omAdapter(suffixTries: (index: string) => ReadonlySet<string> = () => new Set()): unknown {
    return {
      get: (key: string) => this.raw(key, ['GET', key]),
      set: (key: string, value: string) => this.raw(key, ['SET', key, value], false),
      unlink: (keys: string[] | string) => {
        const list = Array.isArray(keys) ? keys : [keys]
        return Promise.all(list.map((k) => this.raw(k, ['UNLINK', k], false)))
      },
      ft: {
        create: (index: string, schema: Record<string, Record<string, unknown>>, options: unknown) => {
          // WITHSUFFIXTRIE (RediSearch 2.6+), which redis-om does not know: on the fields `suffixTries` names.
          const trie = suffixTries(index)
          const fields = Object.fromEntries(Object.entries(schema).map(([f, d]) => [f, trie.has(f) ? { ...d, WITHSUFFIXTRIE: true } : d]))
          return this.ft(FT.CREATE, index, fields, options)
        },
        dropIndex: (index: string) => this.raw(index, ['FT.DROPINDEX', index], false),
      },
    }
  }

  async close(): Promise<void> {
    if (this.opened) await this.opened.then(() => this.hangUp()).catch(() => {})
    this.opened = null
  }
}
