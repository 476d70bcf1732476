/**
 * Access tokens over HTTP, for the admin token: `POST /tokens` `{name, scope}` makes one and answers its secret
 * once (with its id); `GET /tokens` lists names, scopes, ids, creation, expiry and last use, never a secret;
 * `DELETE /tokens/<id>` revokes one, so that its next request is refused. The same store the CLI's `token`
 * command uses (model/services/tokens.ts).
 */
import { Type } from 'typebox'
import type { ListedToken } from '../../model/services/tokens.ts'
import { fail } from '../../model/errors.ts'
import type { GatewayDeps } from '../deps.ts'
import type { RouteSpec } from '../http/route.ts'

const DAY_MS = 86_400_000

export const TokenName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._@-]+$', description: 'who or what uses the token (letters, digits, . _ @ -); its writes are recorded as urn:svc:corpuser:<name>' })
export const TokenScope = Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')], { description: 'read < write < admin' })
export const CreateTokenBody = Type.Object({
  name: TokenName,
  scope: TokenScope,
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'refused after this many days (default: never)' })),
}, { additionalProperties: false })

const ListedTokenSchema = Type.Object({
  id: Type.String({ description: 'names the token in GET and DELETE' }),
  name: Type.String(),
  scope: TokenScope,
  created: Type.String({ format: 'date-time' }),
  expires: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null: never' }),
  lastUsed: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'to the minute; null: never used' }),
})

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

/** A token as the API shows it (pure). */
export function shownToken(t: ListedToken): Type.Static<typeof ListedTokenSchema> {
  return { id: t.id, name: t.subject, scope: t.scope, created: iso(t.created)!, expires: iso(t.expires), lastUsed: iso(t.lastUsed) }
}

export function tokenRoutes({ tokens }: GatewayDeps): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/tokens',
      summary: 'Make an access token (admin token); its secret is in this answer only, never again',
      scope: 'admin',
      body: true,
      requestSchema: CreateTokenBody,
      requestError: 'the body must be {"name": ..., "scope": "read" | "write" | "admin"} (optionally "expiresInDays")',
      responseSchema: Type.Object({ value: Type.Intersect([ListedTokenSchema, Type.Object({ token: Type.String({ description: 'the bearer secret: shown once' }) })]) }),
      example: { request: { name: 'ci', scope: 'write' }, response: { value: { token: 'svc_…', id: '3f2a9c0d41b7', name: 'ci', scope: 'write', created: '2026-01-01T00:00:00.000Z', expires: null, lastUsed: null } } },
      handler: async function createToken(req) {
        const body = req.body as Type.Static<typeof CreateTokenBody>
        const { token, record } = await tokens.create(body.name, body.scope, body.expiresInDays === undefined ? undefined : body.expiresInDays * DAY_MS)
        return { body: { value: { token, ...shownToken(record) } } }
      },
    },
    {
      method: 'GET',
      path: '/tokens',
      summary: 'List the access tokens (admin token): names, scopes, ids, creation, expiry and last use; never a secret',
      scope: 'admin',
      responseSchema: Type.Object({ value: Type.Object({ tokens: Type.Array(ListedTokenSchema) }) }),
      handler: async function listTokens() {
        return { body: { value: { tokens: (await tokens.list()).map(shownToken) } } }
      },
    },
    {
      method: 'DELETE',
      path: '/tokens/*',
      summary: 'Revoke an access token (admin token): its next request is refused',
      scope: 'admin',
      pathParam: Type.Object({ id: Type.String({ minLength: 1, description: 'the token\'s id (GET /tokens)' }) }),
      handler: async function revokeToken(req) {
        const id = req.params.id!
        if (!(await tokens.revoke(id))) throw fail('TOKEN_NOT_FOUND', `no token has the id "${id}" (GET /tokens lists them)`, [{ path: 'id', message: 'unknown or already revoked' }])
        return { body: { value: { id, revoked: true } } }
      },
    },
  ]
}
