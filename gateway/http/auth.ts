/**
 * Who is calling: checks the `Authorization: Bearer <token>` header against the route's scope. Admin routes
 * (restore indices, rollback, tokens) always need a token; with AUTH_ENABLED every non-public route does (public:
 * /health, the API docs and the UI's page and files, which hold no data), and a hard delete needs the admin scope.
 * Missing or unknown token: 401; a token whose scope is too small: 403.
 */
import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { allows, type Scope as TokenScope, type TokenStore } from '../../model/services/tokens.ts'
import type { Config } from '../../model/config.ts'
import { CatalogError } from '../../model/errors.ts'
import { removesEntity } from '../../model/hardDelete.ts'
import { SYSTEM_ACTOR, type WriteItem } from '../../model/jobs.ts'
import { translateName } from '../../model/namespace.ts'
import type { Registry } from '../../model/registry.ts'
import type { RouteRequest, Scope } from './route.ts'

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')
  return match?.[1]
}

const sameSecret = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** The actor urn of an authenticated subject (a corpuser urn in the deployment's namespace). */
export const actorOf = (config: Config, subject: string): string =>
  (subject.startsWith('urn:') ? subject : translateName(config.namespace, `urn:svc:corpuser:${subject}`))

/** Who is calling: the actor urn, and the scope of the token checked (none when no token was asked for). */
export interface Caller {
  actor: string
  granted?: TokenScope
}

/** Resolves the caller for a route of `scope`; throws 401/403 catalogue errors. */
export async function authenticate(config: Config, tokens: TokenStore, scope: Scope, headers: IncomingHttpHeaders): Promise<Caller> {
  if (scope === 'public' || (scope !== 'admin' && !config.authEnabled)) return { actor: translateName(config.namespace, SYSTEM_ACTOR) }
  const token = bearer(headers)
  if (!token) throw new CatalogError('UNAUTHORIZED', 'this route needs an "Authorization: Bearer <token>" header', [{ path: 'Authorization', message: 'missing' }])
  if (config.adminToken && sameSecret(token, config.adminToken)) return { actor: actorOf(config, 'admin'), granted: 'admin' }
  const record = await tokens.verify(token)
  if (!record) throw new CatalogError('UNAUTHORIZED', 'the bearer token is unknown, revoked or expired', [{ path: 'Authorization', message: 'invalid token' }])
  if (!allows(record.scope, scope)) {
    throw new CatalogError('FORBIDDEN', `a ${record.scope} token cannot use a ${scope} route`, [{ path: 'Authorization', message: `needs scope ${scope}` }])
  }
  return { actor: actorOf(config, record.subject), granted: record.scope }
}

/**
 * With AUTH_ENABLED, a hard delete (an entity delete, or a DELETE of its key aspect) needs the admin scope: a write
 * token may change aspects and soft-delete (`status.removed`), not erase an entity. Throws 403 naming `where`.
 */
export function checkHardDelete(config: Config, registry: Registry, req: Pick<RouteRequest, 'granted'>, item: WriteItem, where = 'Authorization'): void {
  if (!config.authEnabled || req.granted === 'admin' || !removesEntity(registry, item)) return
  throw new CatalogError('FORBIDDEN', `a ${req.granted ?? 'write'} token cannot hard-delete ${item.urn}: that needs an admin token`,
    [{ path: where, message: 'needs scope admin' }])
}
