/**
 * Access tokens: random bearer secrets stored only as SHA-256 hashes, each with a subject (who), a scope
 * (read < write < admin) and an optional expiry. Created, listed and revoked with the ops CLI or, with the admin
 * token, over HTTP (`/tokens`); checked by the gateway on every request (a revoked token fails its next request).
 * When each token was last used is kept beside them, to the minute.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { RedisClient } from '../store/redis.ts'
import type { Keys } from '../store/keys.ts'

export type Scope = 'read' | 'write' | 'admin'
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin']

export interface TokenRecord {
  /** First characters of the hash: how operators name a token (list, revoke). */
  id: string
  subject: string
  scope: Scope
  created: number
  /** Epoch ms after which the token is refused; absent: never. */
  expires?: number
}

/** A token as listed: its record and when it was last used (epoch ms; absent: never). */
export interface ListedToken extends TokenRecord {
  lastUsed?: number
}

/** How often one process records that a token was used (the list shows last use to the minute). */
const USE_RECORD_MS = 60_000

/** Whether `granted` allows what `needed` requires. */
export function allows(granted: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(granted) >= SCOPES.indexOf(needed)
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')

export class TokenStore {
  private readonly redis: RedisClient
  private readonly key: string
  private readonly usedKey: string
  /** Token id -> when this process last recorded its use. */
  private readonly recorded = new Map<string, number>()

  constructor(redis: RedisClient, keys: Keys) {
    this.redis = redis
    this.key = keys.tokens()
    this.usedKey = keys.tokensUsed()
  }

  /** Creates a token; the secret is returned once and never stored. */
  async create(subject: string, scope: Scope, ttlMs?: number, secret = `svc_${randomBytes(24).toString('base64url')}`): Promise<{ token: string; record: TokenRecord }> {
    const hash = hashToken(secret)
    const record: TokenRecord = { id: hash.slice(0, 12), subject, scope, created: Date.now(), ...(ttlMs ? { expires: Date.now() + ttlMs } : {}) }
    await this.redis.hset(this.key, hash, JSON.stringify(record))
    return { token: secret, record }
  }

  /** The record of a valid, unexpired token, or undefined. */
  async verify(token: string): Promise<TokenRecord | undefined> {
    const json = await this.redis.hget(this.key, hashToken(token))
    if (!json) return undefined
    const record = JSON.parse(json) as TokenRecord
    if (record.expires !== undefined && record.expires < Date.now()) return undefined
    await this.recordUse(record.id)
    return record
  }

  /** Notes that token `id` was used now, at most once a minute per process. */
  private async recordUse(id: string): Promise<void> {
    const now = Date.now()
    if (now - (this.recorded.get(id) ?? 0) < USE_RECORD_MS) return
    this.recorded.set(id, now)
    await this.redis.hset(this.usedKey, id, String(now))
  }

  /** Every token (never its secret), oldest first, with when it was last used. */
  async list(): Promise<ListedToken[]> {
    const [records, used] = await Promise.all([this.redis.hgetall(this.key), this.redis.hgetall(this.usedKey)])
    return Object.values(records).map((json) => JSON.parse(json) as TokenRecord)
      .map((record) => (used[record.id] ? { ...record, lastUsed: Number(used[record.id]) } : record))
      .sort((a, b) => a.created - b.created)
  }

  /**
   * Revokes the token whose id is `id` (or, with `prefix`, starts with it, as the CLI allows); false when there is
   * none (or, for a prefix, more than one). The next request with it is refused.
   */
  async revoke(id: string, { prefix = false }: { prefix?: boolean } = {}): Promise<boolean> {
    if (id === '') return false
    const hashes = Object.entries(await this.redis.hgetall(this.key))
      .filter(([hash, json]) => (prefix ? hash.startsWith(id) : (JSON.parse(json) as TokenRecord).id === id)).map(([hash]) => hash)
    if (hashes.length !== 1) return false
    const revoked = (await this.redis.hdel(this.key, hashes[0]!)) === 1
    await this.redis.hdel(this.usedKey, hashes[0]!.slice(0, 12))
    return revoked
  }
}
