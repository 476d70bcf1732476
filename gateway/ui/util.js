// Shared helpers: the htm binding, hash links, urn display, and what an entity's summary shows, all read from the
// registry and from the aspects' values (no page knows an entity type).
import { h } from 'preact'
import htm from 'htm'

export const html = htm.bind(h)

/** A link inside the app (hash routes keep the document at the gateway's `/`, whatever proxy prefix is in front). */
export const hrefOf = (path, params = {}) => {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== '' && v !== null) query.append(key, String(v))
  }
  const qs = query.toString()
  return `#${path}${qs ? `?${qs}` : ''}`
}
export const entityHref = (urn, params) => hrefOf(`/entity/${encodeURIComponent(urn)}`, params)
export const lineageHref = (urn, params) => hrefOf(`/lineage/${encodeURIComponent(urn)}`, params)
export const browseHref = (type, path) => hrefOf(`/browse/${encodeURIComponent(type)}`, { path })
export const searchHref = (params) => hrefOf('/search', params)

/** Top-level parts of a tuple `(a,(b,c),d)`. */
export function splitTuple(text) {
  if (!text.startsWith('(') || !text.endsWith(')')) return undefined
  const parts = []
  let depth = 0
  let current = ''
  for (const ch of text.slice(1, -1)) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (ch === ',' && depth === 0) { parts.push(current); current = ''; continue }
    current += ch
  }
  parts.push(current)
  return parts
}

/** Entity type segment of an urn (`urn:svc:dataset:...` -> dataset). */
export const urnType = (urn) => /^urn:[^:]+:([^:]+):/.exec(urn ?? '')?.[1] ?? ''
const urnRest = (urn) => (urn ?? '').replace(/^urn:[^:]+:[^:]+:/, '')
export const isUrn = (value) => typeof value === 'string' && /^urn:[A-Za-z0-9]+:[A-Za-z][A-Za-z0-9_]*:./.test(value)

let registryModel
/** The registry the app runs with (set once it is loaded). */
export const setRegistryModel = (reg) => { registryModel = reg }
export const entitySpec = (name) => registryModel?.entities.find((e) => e.name.toLowerCase() === String(name).toLowerCase())

/** An urn of a type the registry knows (so it has a page); others are shown as text. */
export const hasPage = (urn) => isUrn(urn) && (!registryModel || !!entitySpec(urnType(urn)))

/** A link to an entity's page, or its label alone when its type is unknown here. */
export const UrnLink = ({ urn, children }) => (hasPage(urn)
  ? html`<a href=${entityHref(urn)} title=${urn}>${children ?? urnLabel(urn)}</a>`
  : html`<span title=${`${urn} (a type this registry does not know)`}>${children ?? urnLabel(urn)}</span>`)

/** A short readable name for an urn: its name key field, else its last plain part. */
export function urnLabel(urn) {
  if (!isUrn(urn)) return String(urn)
  const rest = urnRest(urn)
  const parts = splitTuple(rest)
  if (!parts) return rest
  const spec = entitySpec(urnType(urn))
  const at = spec ? spec.keyFields.findIndex((f) => /^(name|id)$/i.test(f)) : -1
  if (at >= 0 && parts[at] !== undefined) return parts[at]
  return [...parts].reverse().find((p) => !isUrn(p)) ?? rest
}

/** Words of a camelCase name: `datasetProperties` -> `Dataset properties`. */
export const humanize = (name) => {
  const words = String(name).replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** What people call the entity types (the registry's names are code names); others read as their words. */
const TYPE_LABELS = {
  corpuser: 'User', corpGroup: 'Group', mlModel: 'ML model', mlModelGroup: 'ML model group', mlModelDeployment: 'ML model deployment',
  mlFeature: 'ML feature', mlFeatureTable: 'ML feature table', mlPrimaryKey: 'ML primary key', dataFlow: 'Pipeline', dataJob: 'Task',
  dataProcessInstance: 'Process run', schemaField: 'Column', glossaryTerm: 'Glossary term', glossaryNode: 'Term group',
  dataPlatform: 'Data platform', dataPlatformInstance: 'Platform instance', dataProduct: 'Data product', post: 'Announcement',
  ownershipType: 'Ownership type', structuredProperty: 'Structured property', platformResource: 'Platform resource',
  dataContract: 'Data contract', versionSet: 'Version set',
}
export const typeLabel = (name) => {
  const known = Object.keys(TYPE_LABELS).find((k) => k.toLowerCase() === String(name).toLowerCase())
  return known ? TYPE_LABELS[known] : humanize(name)
}

export const formatTime = (millis) => (typeof millis === 'number' && millis > 0 ? new Date(millis).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '')

const NAME_FIELDS = ['displayName', 'fullName', 'name', 'title']
const DESCRIPTION_FIELDS = ['description', 'definition', 'documentation']

/** The first string found at one of `fields` in the aspects' values (editable aspects first, so people's edits win). */
function firstString(aspects, fields, skip) {
  const values = Object.values(aspects ?? {}).filter((a) => a.name !== skip)
  const ordered = [...values.filter((a) => /^editable/i.test(a.name)), ...values.filter((a) => !/^editable/i.test(a.name))]
  for (const field of fields) {
    for (const aspect of ordered) {
      const v = aspect.value?.[field]
      if (typeof v === 'string' && v.trim()) return v
    }
  }
  return undefined
}

/** What a search result or a page header shows of an entity (from an entitiesV2 read). */
export function summarize(entity) {
  const aspects = entity?.aspects ?? {}
  const spec = entitySpec(entity?.entityName ?? urnType(entity?.urn))
  const key = spec ? aspects[spec.keyAspect]?.value : undefined
  const platformUrn = key?.platform ?? aspects.dataPlatformInstance?.value?.platform ?? aspects.schemaMetadata?.value?.platform
  const platform = platformUrn ? urnLabel(platformUrn) : key?.dashboardTool ?? key?.tool ?? undefined
  return {
    urn: entity?.urn,
    type: entity?.entityName ?? urnType(entity?.urn),
    name: firstString(aspects, NAME_FIELDS, spec?.keyAspect) ?? urnLabel(entity?.urn),
    description: firstString(aspects, DESCRIPTION_FIELDS),
    platform,
    origin: key?.origin,
    owners: (aspects.ownership?.value?.owners ?? []).map((o) => ({ urn: o.owner, type: o.type })),
    tags: (aspects.globalTags?.value?.tags ?? []).map((t) => t.tag),
    terms: (aspects.glossaryTerms?.value?.terms ?? []).map((t) => t.urn),
    removed: aspects.status?.value?.removed === true,
  }
}

/** Links to the urns of a list. */
export const UrnLinks = ({ urns, label }) => (urns.length === 0 ? null : html`
  <span class="links" aria-label=${label}>${urns.map((urn, i) => html`${i > 0 ? ', ' : ''}<${UrnLink} urn=${urn} />`)}</span>`)

export const Chips = ({ urns, kind, label }) => (urns.length === 0 ? null : html`
  <ul class="chips" aria-label=${label}>${urns.map((urn) => html`<li>${hasPage(urn) ? html`<a class=${`chip ${kind}`} href=${entityHref(urn)} title=${urn}>${urnLabel(urn)}</a>` : html`<span class=${`chip ${kind}`} title=${urn}>${urnLabel(urn)}</span>`}</li>`)}</ul>`)

export const TypeBadge = ({ type }) => html`<span class="badge">${typeLabel(type)}</span>`

export function ErrorBox({ error }) {
  if (!error) return null
  const status = error.status ? `${error.status} ${error.code}: ` : ''
  const hint = error.status === 403 ? ' Your token does not allow this: ask whoever runs the catalogue for one that does.'
    : error.status === 401 ? ' An access token is needed: enter yours in the dialog.' : ''
  return html`<div class="error" role="alert">${status}${error.message}${hint}</div>`
}
