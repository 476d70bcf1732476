// The UI's only way to the service: the public JSON API, by relative URLs (so it works behind a proxy or under a
// prefix). A token, when the service asks for one, is kept in sessionStorage (this tab, this session) and sent in
// the Authorization header: never in a URL.

const TOKEN_KEY = 'svc-catalog.token'

export const getToken = () => sessionStorage.getItem(TOKEN_KEY) ?? ''
export const setToken = (token) => (token ? sessionStorage.setItem(TOKEN_KEY, token) : sessionStorage.removeItem(TOKEN_KEY))

/** An API error: the service's {status, code, message, details} body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`)
    this.status = status
    this.code = body?.code ?? String(status)
    this.details = body?.details ?? []
  }
}

const authListeners = new Set()
/** Called with the error, and whether a token was sent, whenever the service answers 401 (no token, or one it does not know). */
export const onUnauthorized = (listener) => { authListeners.add(listener); return () => authListeners.delete(listener) }

export async function call(method, path, body) {
  const headers = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const token = getToken()
  if (token) headers.authorization = `Bearer ${token}`
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  let json
  try { json = text ? JSON.parse(text) : undefined } catch { json = { message: text } }
  if (!res.ok) {
    const err = new ApiError(res.status, json)
    if (res.status === 401) for (const listener of authListeners) listener(err, Boolean(token))
    throw err
  }
  return json
}

const enc = encodeURIComponent
/** A Rest.li list parameter: each item encoded, so urns with commas and parentheses survive. */
const list = (items) => enc(`List(${items.map(enc).join(',')})`)

let registryPromise
export const registry = () => (registryPromise ??= call('GET', 'registry').catch((err) => { registryPromise = undefined; throw err }))
export const forgetRegistry = () => { registryPromise = undefined }

export const search = (entity, input, start, count, filter, sort) =>
  call('POST', 'entities?action=search', { input, entity, start, count, ...(filter ? { filter } : {}), ...(sort ? { sort } : {}) }).then((r) => r.value)
export const autocomplete = (entity, query, limit) =>
  call('POST', 'entities?action=autocomplete', { query, entity, limit }).then((r) => r.value)
export const browse = (entity, path, start, limit) =>
  call('POST', 'entities?action=browse', { entity, path, start, limit }).then((r) => r.value)
export const entity = (urn) => call('GET', `entitiesV2/${enc(urn)}`)
const typeOf = (urn) => /^urn:[^:]+:([^:]+):/.exec(urn)?.[1]?.toLowerCase()
/** Latest aspects of many entities, by urn (batches of 100); urns of types the registry does not know are skipped. */
export async function entities(urns) {
  const known = new Set((await registry()).entities.map((e) => e.name.toLowerCase()))
  const unique = [...new Set(urns)].filter((urn) => known.has(typeOf(urn)))
  const found = {}
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100)
    Object.assign(found, (await call('GET', `entitiesV2?ids=${list(chunk)}`)).results)
  }
  return found
}
export const versions = (urn, aspect) => call('GET', `versions/${enc(urn)}?aspect=${enc(aspect)}`)
export const timeseries = (urn, entityName, aspect, limit = 1000) =>
  call('POST', 'aspects?action=getTimeseriesAspectValues', { urn, entity: entityName, aspect, limit })
    .then((r) => r.value.values.map((v) => JSON.parse(v.aspect.value)))
export const relationships = (urn, direction, count = 200) =>
  call('GET', `relationships?urn=${enc(urn)}&direction=${direction}&count=${count}`)
export const lineageGraph = (urn, direction, maxHops) =>
  call('GET', `lineage/graph?urn=${enc(urn)}&direction=${direction}&maxHops=${maxHops}`)
export const recentChanges = (count = 20) => call('GET', `changes/recent?count=${count}`).then((r) => r.changes)
/** A write through the public API (route 1), as any client makes it: a proposal, here a JSON patch, sent with
 * If-Version-Match so an edit made from an older version is refused (412) instead of overwriting a newer one. */
export const patchAspect = (entityType, urn, aspectName, operations, version) =>
  call('POST', 'aspects?action=ingestProposal', {
    proposal: {
      entityType, entityUrn: urn, changeType: 'PATCH', aspectName,
      aspect: { contentType: 'application/json-patch+json', value: JSON.stringify(operations) },
      headers: { 'If-Version-Match': String(version ?? 0) },
    },
  })
/** The latest value and version of one aspect (version 0 when it does not exist). */
export async function aspectNow(urn, aspectName) {
  const e = await call('GET', `entitiesV2/${enc(urn)}?aspects=${list([aspectName])}`)
  const a = e.aspects?.[aspectName]
  return { value: a?.value, version: Number(a?.systemMetadata?.version ?? 0), created: a?.created }
}
