/**
 * On a Redis Cluster, each shard's RediSearch index follows its shard's slot when an operator moves slots
 * (`redis-cli --cluster rebalance`, `reshard`, adding or removing a master), without a restart or a rebuild.
 * RediSearch indexes per node and its commands are routed by the index name (which carries the shard's hash tag),
 * so an index lives on one node and does not move by itself. Every second (and at once when a query meets a
 * missing index) one round:
 *   - reads the cluster's map from every master (CLUSTER NODES: who owns each slot, and on the master's own line
 *     which slots it is migrating or importing) and the indexes each master holds (FT._LIST);
 *   - creates a shard's index where it is missing on the slot's owner and on a node importing the slot (that one
 *     with ASKING, as the slot is not its own yet), both with SKIPINITIALSCAN. RediSearch indexes every document
 *     MIGRATE brings (RESTORE) or a write changes afterwards, so the index fills as the slot's keys arrive; the
 *     documents that were there before it are written again (`whole`), which completes it: no rebuild;
 *   - drops the copy left on a node that no longer owns the slot (its documents left with the slot; MIGRATE deleted
 *     them, and the copy with them). FT.DROPINDEX is routed by the index name, which that node no longer serves:
 *     it is sent there inside `CLUSTER SETSLOT <slot> IMPORTING <owner>` ... `STABLE` with ASKING, a few
 *     microseconds in which nothing else reaches the node for that slot (no one redirects to it). It is done only
 *     when no slot of the cluster is migrating, and when the node holds no key of the slot, so it never races an
 *     operator's move.
 * A round creates what is missing in one pipeline per node and never waits for an index to fill: the index's
 * generation is bumped on the owner once it holds the documents already there (checked each round, and written
 * again where it lacks some), at once after a drop, and when its slot has finished moving, so that no answer remembered while the
 * index was filling is served (memo.ts). A moved shard's index is checked against the shard's live urns, and the
 * shard's documents are written again, unchanged, when the index lacks some (`whole`). Documents are never deleted
 * or changed (FT.DROPINDEX without DD). Each process of the service runs the rounds; doing the same creation, drop
 * or re-index twice is harmless ("already exists", "Unknown Index name").
 */
import { Redis } from 'ioredis'
import { Client as OmClient, type Schema } from 'redis-om'
import type { RedisClient } from '../../store/redis.ts'
import { LuaScript } from '../../store/script.ts'
import { slotOf } from '../../store/shards.ts'
import { storeFailure } from '../../store/storeFailures.ts'
import { generationKey, liveKey } from './companions.ts'
import { FT } from './connection.ts'

const ROUND_MS = 1000
/** Documents written again per script when a moved index lacks some (a few milliseconds of Redis each). */
const REINDEX_PAGE = 50
const reindexScript = new LuaScript(import.meta.url, './reindex.lua')

/** One shard index: its name, its slot and the FT.CREATE command that makes it. */
export interface IndexDefinition {
  index: string
  slot: number
  create: string[]
}

/** One master as CLUSTER NODES shows it, pure. */
export interface MasterView {
  id: string
  address: string
  /** Slot ranges it owns, [low, high] inclusive. */
  ranges: [number, number][]
  /** Its own line only: slots it migrates to another node, and slots it imports (slot -> other node's id). */
  migrating: Map<number, string>
  importing: Map<number, string>
}

/** What one round did (tests and the log read it). */
export interface PlacementRound {
  created: { index: string; node: string; importing: boolean }[]
  dropped: { index: string; node: string }[]
  /** Set when an index lacked documents and they were written again (what it held before and after). */
  reindexed?: string
}

/** The masters of a CLUSTER NODES reply, pure (open slots are read from the `myself` line only). */
export function parseClusterNodes(text: string): MasterView[] {
  const masters: MasterView[] = []
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ')
    if (fields.length < 8) continue
    const [id, addr, flags] = fields as [string, string, string]
    if (!flags.split(',').includes('master') || /fail|noaddr|handshake/.test(flags)) continue
    const view: MasterView = { id, address: addr.split('@')[0]!.split(',')[0]!, ranges: [], migrating: new Map(), importing: new Map() }
    for (const entry of fields.slice(8)) {
      const open = /^\[(\d+)-([<>])-([0-9a-f]+)\]$/.exec(entry)
      if (open) {
        if (flags.includes('myself')) (open[2] === '>' ? view.migrating : view.importing).set(Number(open[1]), open[3]!)
        continue
      }
      const [low, high] = entry.split('-').map(Number)
      if (Number.isFinite(low)) view.ranges.push([low!, high ?? low!])
    }
    masters.push(view)
  }
  return masters
}

/**
 * The FT.CREATE command the engine sends for `schema` (captured, not sent): redis-om's, with WITHSUFFIXTRIE on the
 * fields `trie` names (as connection.ts's omAdapter adds it).
 */
export async function createCommand(schema: Schema, trie: ReadonlySet<string> = new Set()): Promise<string[]> {
  let captured: string[] | undefined
  const capture = {
    get: async () => null,
    set: async () => 'OK',
    unlink: async () => 0,
    ft: {
      create: async (index: string, fields: Record<string, Record<string, unknown>>, options: unknown) => {
        const withTries = Object.fromEntries(Object.entries(fields).map(([f, d]) => [f, trie.has(f) ? { ...d, WITHSUFFIXTRIE: true } : d]))
        captured = (FT.CREATE.transformArguments as (...a: unknown[]) => string[])(index, withTries, options)
      },
      dropIndex: async () => 'OK',
    },
  }
  await new OmClient().useNoClose(capture as never).fetchRepository(schema).createIndex()
  if (!captured) throw new Error(`redis-om did not create index ${schema.indexName}`)
  return [...captured]
}

const owns = (m: MasterView, slot: number): boolean => m.ranges.some(([low, high]) => slot >= low && slot <= high)

/** The FT.CREATE command with SKIPINITIALSCAN (before SCHEMA): the index indexes only documents written after it. */
export function withoutInitialScan(create: readonly string[]): string[] {
  const at = create.indexOf('SCHEMA')
  return [...create.slice(0, at), 'SKIPINITIALSCAN', ...create.slice(at)]
}

/**
 * Writes every document of the index's shard again (its live urns, REINDEX_PAGE per script), so that RediSearch
 * indexes each one again; a document deleted meanwhile stays deleted (reindex.lua). `redis` reaches the shard's node.
 */
export async function reindexDocuments(redis: RedisClient, d: IndexDefinition): Promise<void> {
  const prefix = d.create[d.create.indexOf('PREFIX') + 2]!
  for (let from = 0; ; from += REINDEX_PAGE) {
    const urns = await redis.zrange(liveKey(d.index), from, from + REINDEX_PAGE - 1)
    if (urns.length === 0) return
    await reindexScript.run(redis, urns.map((u) => prefix + u), urns)
  }
}

export class IndexPlacement {
  private readonly seeds: string[]
  private readonly schemas: () => Schema[]
  private definitions: Promise<IndexDefinition[]> | undefined
  private readonly nodes = new Map<string, Redis>()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<PlacementRound> | undefined
  /** Indexes created on their owner and still indexing the documents there: index -> owner's id, definition. */
  private readonly filling = new Map<string, { owner: string; d: IndexDefinition }>()
  /** What the last round saw of each index's slot: its owner's id, or "moving". */
  private readonly slotStates = new Map<string, string>()
  /** How many times an index's documents were written again for lacking some. */
  private readonly reindexed = new Map<string, number>()
  private readonly onRound: (round: PlacementRound) => void

  private readonly suffixTries: (index: string) => ReadonlySet<string>
  private readonly nodeSetup: readonly string[][]

  /**
   * `schemas`: every shard index; `suffixTries`: the fields of an index that get WITHSUFFIXTRIE; `nodeSetup`:
   * commands for a node before it gets an index (module settings such as FT.CONFIG SET, which are per node).
   */
  constructor(seeds: string[], schemas: () => Schema[], suffixTries: (index: string) => ReadonlySet<string> = () => new Set(), nodeSetup: readonly string[][] = [], onRound: (round: PlacementRound) => void = () => {}) {
    this.seeds = seeds
    this.schemas = schemas
    this.suffixTries = suffixTries
    this.nodeSetup = nodeSetup
    this.onRound = onRound
  }

  /** Runs a round every second from now on (the timer does not keep the process alive). */
  start(): void {
    // A round that fails (a node restarting, the cluster's map changing under it) is simply run again next time.
    this.timer ??= setInterval(() => { void this.placeNow().catch(() => {}) }, ROUND_MS)
    this.timer.unref()
  }

  /** One round now (callers at the same time share it). */
  placeNow(): Promise<PlacementRound> {
    this.running ??= this.round().finally(() => { this.running = undefined })
    return this.running
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.running?.catch(() => {})
    for (const node of this.nodes.values()) node.disconnect()
    this.nodes.clear()
  }

  private node(address: string): Redis {
    let node = this.nodes.get(address)
    if (!node) {
      const cut = address.lastIndexOf(':')
      node = new Redis({ host: address.slice(0, cut), port: Number(address.slice(cut + 1)), maxRetriesPerRequest: 1, connectTimeout: 2000, connectionName: 'svc-placement' })
      node.on('error', () => {})
      this.nodes.set(address, node)
    }
    return node
  }

  /** Every master, each with its own open slots (CLUSTER NODES asked of each master). */
  private async masters(): Promise<MasterView[]> {
    let seen: MasterView[] | undefined
    for (const seed of [...this.seeds, ...this.nodes.keys()]) {
      seen = await this.node(seed).call('CLUSTER', 'NODES').then((t) => parseClusterNodes(String(t)), () => undefined)
      if (seen) break
    }
    if (!seen) throw new Error('index placement: no cluster node answered CLUSTER NODES')
    return Promise.all(seen.map(async (m) => {
      const own = parseClusterNodes(String(await this.node(m.address).call('CLUSTER', 'NODES'))).find((v) => v.id === m.id)
      return { ...m, migrating: own?.migrating ?? new Map(), importing: own?.importing ?? new Map() }
    }))
  }

  private async round(): Promise<PlacementRound> {
    this.definitions ??= Promise.all(this.schemas().map(async (s) => ({ index: s.indexName, slot: slotOf(s.indexName), create: await createCommand(s, this.suffixTries(s.indexName)) })))
    const definitions = await this.definitions
    const masters = await this.masters()
    const held = new Map(await Promise.all(masters.map(async (m) => [m.id, new Set((await this.node(m.address).call('FT._LIST')) as string[])] as const)))
    const round: PlacementRound = { created: [], dropped: [] }
    await Promise.all([this.touchFilled(masters), this.touchMoved(definitions, masters)])
    // Every index missing on its slot's owner or on a node importing its slot, created in one pipeline per node.
    const missing = new Map<MasterView, IndexDefinition[]>()
    for (const d of definitions) {
      const owner = masters.find((m) => owns(m, d.slot))
      const importer = masters.find((m) => m.importing.has(d.slot))
      for (const m of [owner, importer]) if (m && !held.get(m.id)!.has(d.index)) missing.set(m, [...(missing.get(m) ?? []), d])
    }
    await Promise.all([...missing].map(async ([m, list]) => {
      const pipeline = this.node(m.address).pipeline()
      for (const command of this.nodeSetup) pipeline.call(command[0]!, ...command.slice(1))
      // The position of each FT.CREATE's reply (an importing node's is preceded by ASKING's).
      const at: number[] = []
      for (const d of list) {
        const importing = m.importing.has(d.slot)
        if (importing) pipeline.asking()
        // Without the initial scan, on an importing node and on the owner alike: a scan walks the node's whole
        // keyspace once per index created (dozens at once when a shard arrives), was seen never to finish on an
        // importing node, and on an owner holding ~75,000 keys stayed at 0% for minutes (a shard's search
        // incomplete 14-28 s after a slot moved back). The documents MIGRATE brings or the apply script writes
        // from now on are indexed as they arrive; those already there are written again (`whole`).
        const create = withoutInitialScan(d.create)
        pipeline.call(create[0]!, ...create.slice(1))
        at.push(pipeline.length - 1)
      }
      const replies = (await pipeline.exec()) ?? []
      list.forEach((d, i) => {
        const [err] = replies[at[i]!] ?? [null]
        if (err && !/already exists/i.test(err.message)) throw err
        if (err) return
        const importing = m.importing.has(d.slot)
        round.created.push({ index: d.index, node: m.address, importing })
        if (!importing) this.filling.set(d.index, { owner: m.id, d })
      })
    }))
    const settled = masters.every((m) => m.migrating.size === 0 && m.importing.size === 0)
    for (const d of settled ? definitions : []) {
      const owner = masters.find((m) => owns(m, d.slot))
      if (!owner) continue
      for (const m of masters) {
        if (m === owner || !held.get(m.id)!.has(d.index)) continue
        if (await this.drop(m, owner, d)) {
          round.dropped.push({ index: d.index, node: m.address })
          await this.touch(owner, d.index)
        }
      }
    }
    if (round.created.length + round.dropped.length > 0) this.onRound(round)
    return round
  }

  /**
   * Bumps the index's generation on its owner: answers remembered while the index was filling (memo.ts: during
   * the move, or while FT.CREATE indexed the documents already there) are not served once it is whole. Never
   * on an importing node (a key written there would collide with the one MIGRATE brings).
   */
  private async touch(owner: MasterView, index: string): Promise<void> {
    await this.node(owner.address).call('HINCRBY', generationKey(index), 'n', '1').catch(() => 0)
  }

  /**
   * Bumps the generation of every index whose slot finished moving since the last round (its owner changed, or it
   * was migrating and is not now): answers remembered while its documents were on their way (the generation key
   * moves with them, unchanged) are not served once they have all arrived.
   */
  private async touchMoved(definitions: IndexDefinition[], masters: MasterView[]): Promise<void> {
    const moved: [MasterView, IndexDefinition][] = []
    for (const d of definitions) {
      const owner = masters.find((m) => owns(m, d.slot))
      const moving = masters.some((m) => m.migrating.has(d.slot) || m.importing.has(d.slot))
      const state = moving ? 'moving' : owner?.id ?? 'unowned'
      const before = this.slotStates.get(d.index)
      this.slotStates.set(d.index, state)
      if (owner && !moving && before !== undefined && before !== state) moved.push([owner, d])
    }
    await Promise.all(moved.map(([owner, d]) => this.completeOrFollow(owner, d)))
  }

  /**
   * Whether the index on its owner holds every document of its shard (FT.INFO num_docs against the companion set
   * of live urns, read together). When it does not (documents a move brought that the module did not index), the
   * shard's documents are written again in short scripts (reindex.lua: RediSearch indexes a hash on every write),
   * so the index answers throughout and ends whole; at most 3 times per index, so that a count that never matches
   * (documents the module refuses) cannot loop.
   */
  private async whole(owner: MasterView, d: IndexDefinition): Promise<boolean> {
    const node = this.node(owner.address)
    const before = await this.counts(node, d)
    // Still indexing (created, here or by another process, moments ago): judged once it has filled.
    if (before.indexing) {
      this.filling.set(d.index, { owner: owner.id, d })
      return false
    }
    const tries = this.reindexed.get(d.index) ?? 0
    if (before.docs === undefined || before.docs >= before.live || tries >= 3) return true
    this.reindexed.set(d.index, tries + 1)
    await reindexDocuments(node, d)
    const after = await this.counts(node, d)
    this.onRound({ created: [], dropped: [], reindexed: `${d.index}@${owner.address}: ${before.docs} of ${before.live} documents indexed, ${after.docs} after writing them again` })
    return true
  }

  /** The index's document count and whether it is still indexing (FT.INFO), and the shard's live urns (ZCARD). */
  private async counts(node: Redis, d: IndexDefinition): Promise<{ docs?: number; indexing: boolean; live: number }> {
    const [[, info], [, live]] = ((await node.pipeline().call('FT.INFO', d.index).zcard(liveKey(d.index)).exec()) ?? []) as [unknown, unknown][]
    if (!Array.isArray(info)) return { indexing: false, live: Number(live ?? 0) }
    const field = (name: string) => String(info[info.findIndex((v) => String(v) === name) + 1] ?? '0')
    return { docs: Number(field('num_docs')), indexing: field('indexing') !== '0', live: Number(live ?? 0) }
  }

  /**
   * Indexes created on their owner (without the initial scan) are completed from the documents already there
   * (`whole`; one still `indexing`, created by an earlier version with the scan, is judged once it has filled),
   * then get their generation bumped, so no answer remembered while one filled is served after.
   */
  private async touchFilled(masters: MasterView[]): Promise<void> {
    await Promise.all([...this.filling].map(async ([index, { owner: id, d }]) => {
      this.filling.delete(index)
      const owner = masters.find((m) => m.id === id)
      if (owner) await this.completeOrFollow(owner, d)
    }))
  }

  /**
   * Bumps the index's generation once it is whole (`whole`); until then, and when checking failed (its node busy
   * or its slot moving again), it is followed as filling and checked again next round.
   */
  private async completeOrFollow(owner: MasterView, d: IndexDefinition): Promise<void> {
    try {
      if (await this.whole(owner, d)) await this.touch(owner, d.index)
    } catch {
      this.filling.set(d.index, { owner: owner.id, d })
    }
  }

  /** Drops the copy of `d` on `m`, which no longer owns its slot (see the top of this file). */
  private async drop(m: MasterView, owner: MasterView, d: IndexDefinition): Promise<boolean> {
    const node = this.node(m.address)
    if (Number(await node.call('CLUSTER', 'COUNTKEYSINSLOT', String(d.slot))) > 0) return false
    const replies = (await node.pipeline()
      .call('CLUSTER', 'SETSLOT', String(d.slot), 'IMPORTING', owner.id)
      .asking()
      .call('FT.DROPINDEX', d.index)
      .call('CLUSTER', 'SETSLOT', String(d.slot), 'STABLE')
      .exec()) ?? []
    const [setErr] = replies[0] ?? [null]
    const [dropErr] = replies[2] ?? [null]
    if (setErr) return false
    return !dropErr
  }
}

/** How long a query keeps being sent again while its shard's slot (and index) moves. */
const MOVING_BUDGET_MS = 10_000

/**
 * What a failed query meets while the cluster changes, pure: its shard's index not on the node yet ("Unknown
 * Index name"), its slot moving (TRYAGAIN, or a redirection node-redis gave up on: it follows ASK and MOVED, but
 * loses the race when ASKING and the command are not adjacent on a shared connection), or the node it was routed
 * to gone (removed from the cluster, failed over, or restarting: the connection is offline or closed).
 */
export function movingFailure(message: string): 'missing' | 'moving' | 'gone' | undefined {
  if (/Unknown Index name|no such index/i.test(message)) return 'missing'
  // node-redis, asked for a slot's node while it learns the map again, reads an empty slot table: a TypeError.
  // Here only: anywhere else such a TypeError is a fault of the service, not a store failure.
  if (/reading '(master|replicas)'/.test(message)) return 'moving'
  // The store failures the gateway answers 503 (storeFailures.ts): a node unreachable is gone, the rest is moving.
  const code = storeFailure(message)?.code
  return code === 'UNAVAILABLE' ? 'gone' : code ? 'moving' : undefined
}

/**
 * Sends a query again while its shard is moving (a read: sending it again is harmless), for up to 10 s: a missing
 * index is placed first (`placeNow` creates it where its slot is), and a gone node makes the connection learn the
 * cluster's map again (`relearn`).
 */
export async function retryWhileMoving<T>(send: () => Promise<T>, placeNow: () => Promise<unknown>, relearn: () => Promise<unknown>): Promise<T> {
  for (const started = Date.now(); ;) {
    try {
      return await send()
    } catch (err) {
      const failure = movingFailure(err instanceof Error ? err.message : String(err))
      if (!failure || Date.now() - started > MOVING_BUDGET_MS) throw err
      if (failure === 'missing') await placeNow().catch(() => {})
      if (failure === 'gone') await relearn().catch(() => {})
      await new Promise((r) => setTimeout(r, 50))
    }
  }
}
