/**
 * Access tokens: random bearer secrets stored only as SHA-256 hashes, each with a subject (who), a scope
 * (read < write < admin) and an optional expiry. Created and revoked with the ops CLI; checked by the gateway.
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

/** Whether `granted` allows what `needed` requires. */
export function allows(granted: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(granted) >= SCOPES.indexOf(needed)
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')

export class TokenStore {
  private readonly redis: RedisClient
  private readonly key: string

  constructor(redis: RedisClient, keys: Keys) {
    this.redis = redis
    this.key = keys.tokens()
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
    return record.expires !== undefined && record.expires < Date.now() ? undefined : record
  }

  async list(): Promise<TokenRecord[]> {
    return Object.values(await this.redis.hgetall(this.key)).map((json) => JSON.parse(json) as TokenRecord)
  }

  /** Revokes the token whose id (hash prefix) is `id`; false when there is none. */
  async revoke(id: string): Promise<boolean> {
    const hashes = Object.keys(await this.redis.hgetall(this.key)).filter((h) => h.startsWith(id))
    if (hashes.length !== 1) return false
    return (await this.redis.hdel(this.key, hashes[0]!)) === 1
  }
}
