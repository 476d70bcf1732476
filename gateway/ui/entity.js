// The entity page, for every entity type the registry knows: a summary (description, platform, owners, tags,
// terms, documentation links), the schema as a table when there is one, timeseries charts, relationships as
// links, then every aspect (readable, raw JSON and history on demand). Soft-deleted entities say so at the top.
import { useEffect, useState } from 'preact/hooks'
import * as api from './api.js'
import { AspectCard, Value } from './aspect.js'
import { TimeseriesSection } from './charts.js'
import { ColumnEditor, DescriptionEditor, LinksEditor, OwnersEditor, TagsEditor, TermsEditor, canEdit } from './edit.js'
import { Markdown } from './markdown.js'
import { Chips, ErrorBox, TypeBadge, UrnLink, browseHref, html, humanize, lineageHref, summarize, urnLabel } from './util.js'

/** How a relationship reads from this entity's side. */
const PHRASES = {
  'OUTGOING OwnedBy': 'Owned by', 'INCOMING OwnedBy': 'Owns',
  'OUTGOING TaggedWith': 'Tagged with', 'INCOMING TaggedWith': 'Tagged on',
  'OUTGOING TermedWith': 'Glossary terms', 'INCOMING TermedWith': 'Term of',
  'OUTGOING DownstreamOf': 'Upstream (derived from)', 'INCOMING DownstreamOf': 'Downstream (derived into)',
  'OUTGOING Consumes': 'Consumes', 'INCOMING Consumes': 'Consumed by',
  'OUTGOING Contains': 'Contains', 'INCOMING Contains': 'Contained in',
  'OUTGOING IsPartOf': 'Part of', 'INCOMING IsPartOf': 'Members / parts',
  'OUTGOING ReportsTo': 'Reports to', 'INCOMING ReportsTo': 'Reports',
  'OUTGOING SchemaFieldTaggedWith': 'Schema fields tagged with', 'INCOMING SchemaFieldTaggedWith': 'Tags schema fields of',
  'OUTGOING EditableSchemaFieldTaggedWith': 'Schema fields tagged with (edited)', 'INCOMING EditableSchemaFieldTaggedWith': 'Tags schema fields of (edited)',
  'OUTGOING ForeignKeyToDataset': 'Foreign keys to', 'INCOMING ForeignKeyToDataset': 'Foreign keys from',
}
/** Where a relationship's meaning depends on the entity type (IsPartOf names a group's members). */
const TYPE_PHRASES = {
  'corpGroup OUTGOING IsPartOf': 'Members', 'corpuser INCOMING IsPartOf': 'Member of', 'corpGroup INCOMING IsPartOf': 'Member of',
  'corpGroup OUTGOING OwnedBy': 'Admins', 'corpuser INCOMING OwnedBy': 'Owns (or administers)',
}
const phrase = (entityType, direction, type) => TYPE_PHRASES[`${entityType} ${direction} ${type}`] ?? PHRASES[`${direction} ${type}`] ?? `${humanize(type)} (${direction.toLowerCase()})`

/** Cleans a v2 field path (`[version=2.0].[type=int].id` -> `id`). */
const fieldName = (path) => path.replace(/\[[^\]]*\]\.?/g, '') || path
const typeName = (type) => Object.keys(type?.type ?? {})[0]?.split('.').pop()?.replace(/Type$/, '') ?? ''

function SchemaTable({ schema, editable, entity, prefix, onSaved }) {
  const edits = new Map((editable?.editableSchemaFieldInfo ?? []).map((e) => [e.fieldPath, e]))
  const [editing, setEditing] = useState()
  const editableColumns = canEdit(entity.entityName, 'editableSchemaMetadata')
  const keys = new Set(schema.primaryKeys ?? [])
  const fields = schema.fields ?? []
  return html`
    <section class="panel" aria-labelledby="schema-title">
      <h2 id="schema-title">Schema <span class="count">${fields.length} field${fields.length === 1 ? '' : 's'}</span></h2>
      <div class="table-wrap"><table class="records schema">
        <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Nullable</th><th scope="col">Key</th><th scope="col">Description</th><th scope="col">Tags</th><th scope="col">Glossary terms</th>${editableColumns ? html`<th scope="col">Edit</th>` : null}</tr></thead>
        <tbody>
          ${fields.map((f) => {
            const edit = edits.get(f.fieldPath)
            const tags = [...(f.globalTags?.tags ?? []), ...(edit?.globalTags?.tags ?? [])].map((t) => t.tag)
            const terms = [...(f.glossaryTerms?.terms ?? []), ...(edit?.glossaryTerms?.terms ?? [])].map((t) => t.urn)
            const isKey = f.isPartOfKey === true || keys.has(f.fieldPath) || /\[key=True\]/i.test(f.fieldPath)
            const open = editing === f.fieldPath
            return html`<tr data-field=${f.fieldPath}>
              <th scope="row" title=${f.fieldPath}><code>${fieldName(f.fieldPath)}</code></th>
              <td>${f.nativeDataType ?? ''}${typeName(f.type) && typeName(f.type).toLowerCase() !== String(f.nativeDataType).toLowerCase() ? html` <span class="muted">(${typeName(f.type)})</span>` : null}</td>
              <td>${f.nullable ? 'yes' : 'no'}</td>
              <td>${isKey ? 'key' : ''}</td>
              <td>${edit?.description ?? f.description ? html`<${Markdown} text=${edit?.description ?? f.description} />` : ''}</td>
              <td><${Chips} urns=${[...new Set(tags)]} kind="tag" label=${`Tags of ${fieldName(f.fieldPath)}`} /></td>
              <td><${Chips} urns=${[...new Set(terms)]} kind="term" label=${`Terms of ${fieldName(f.fieldPath)}`} /></td>
              ${editableColumns ? html`<td><button type="button" class="secondary small" aria-expanded=${open} aria-label=${`Edit column ${fieldName(f.fieldPath)}`}
                onClick=${() => setEditing(open ? undefined : f.fieldPath)}>Edit</button></td>` : null}
            </tr>
            ${open ? html`<tr class="editing"><td colspan="8"><${ColumnEditor} entity=${entity} field=${f} prefix=${prefix} onSaved=${onSaved} onClose=${() => setEditing(undefined)} /></td></tr>` : null}`
          })}
        </tbody>
      </table></div>
    </section>`
}

function Relationships({ urn, entityType }) {
  const [groups, setGroups] = useState()
  const [names, setNames] = useState({})
  const [error, setError] = useState()
  useEffect(() => {
    Promise.all(['OUTGOING', 'INCOMING'].map((direction) => api.relationships(urn, direction).then((r) => ({ direction, r })))).then(async (answers) => {
      const byKey = new Map()
      const totals = new Map()
      for (const { direction, r } of answers) {
        for (const rel of r.relationships) {
          const key = `${direction} ${rel.type}`
          byKey.set(key, [...(byKey.get(key) ?? []), rel.entity])
        }
        totals.set(direction, r.total)
      }
      setGroups({ list: [...byKey].map(([key, urns]) => ({ key, direction: key.split(' ')[0], type: key.split(' ')[1], urns: [...new Set(urns)] })), totals })
      const all = [...byKey.values()].flat()
      if (all.length) setNames(await api.entities(all.slice(0, 300)).catch(() => ({})))
    }, setError)
  }, [urn])
  if (error) return html`<${ErrorBox} error=${error} />`
  if (!groups || groups.list.length === 0) return null
  return html`
    <section class="panel" aria-labelledby="relationships-title">
      <h2 id="relationships-title">Relationships</h2>
      <dl class="relationships">
        ${groups.list.map((g) => html`<div data-relationship=${g.key}>
          <dt>${phrase(entityType, g.direction, g.type)} <span class="count">${g.urns.length}</span></dt>
          <dd><ul>${g.urns.map((u) => html`<li><${TypeBadge} type=${names[u]?.entityName ?? u.split(':')[2]} /> <${UrnLink} urn=${u}>${names[u] ? summarize(names[u]).name : urnLabel(u)}</${UrnLink}></li>`)}</ul></dd>
        </div>`)}
      </dl>
      ${[...groups.totals.values()].some((t) => t > 200) ? html`<p class="muted">Only the first 200 of each direction are shown.</p>` : null}
    </section>`
}

export function EntityPage({ urn, registry }) {
  const [entity, setEntity] = useState()
  const [error, setError] = useState()
  const [people, setPeople] = useState({})
  const [generation, setGeneration] = useState(0)
  /** Read again after a write (or a refused one): the page shows what is stored now. */
  const reload = () => api.entity(urn).then((e) => {
    setEntity(e)
    setGeneration((g) => g + 1)
    const owners = summarize(e).owners.map((o) => o.urn)
    if (owners.length) api.entities(owners).then(setPeople, () => {})
  }, setError)
  useEffect(() => {
    api.entity(urn).then((e) => {
      setEntity(e)
      const owners = summarize(e).owners.map((o) => o.urn)
      if (owners.length) api.entities(owners).then(setPeople, () => {})
    }, setError)
  }, [urn])
  if (error) return html`<${ErrorBox} error=${error} />`
  if (!entity) return html`<p class="loading">Loading ${urn}…</p>`
  const spec = registry.entities.find((e) => e.name === entity.entityName)
  const s = summarize(entity)
  const aspects = entity.aspects
  const docs = aspects.institutionalMemory?.value?.elements ?? []
  const paths = aspects.browsePaths?.value?.paths ?? []
  const shown = (spec?.aspects ?? []).filter((a) => !a.timeseries && aspects[a.name])
  const onlyKey = Object.keys(aspects).length <= 1
  const prefix = registry.urnPrefix
  const editable = (aspect) => canEdit(entity.entityName, aspect)
  const ownerNames = Object.fromEntries(Object.entries(people).map(([u, p]) => [u, summarize(p).name]))
  return html`
    <article class="entity">
      ${s.removed ? html`<div class="removed-banner" role="status"><strong>Soft-deleted.</strong> This entity is marked removed (status.removed is true): it is hidden from search and browse, and still readable here.</div>` : null}
      <header class="entity-head">
        <${TypeBadge} type=${entity.entityName} />
        <h1>${s.name}${s.removed ? html` <span class="badge removed">removed</span>` : null}</h1>
        <code class="urn">${entity.urn}</code>
        <nav class="entity-links" aria-label="About this entity">
          <a href=${lineageHref(entity.urn)}>Lineage</a>
          ${paths.map((p) => html`<a href=${browseHref(entity.entityName, p.split('/').slice(0, -1).join('/') || '/')}>Browse ${p}</a>`)}
        </nav>
      </header>
      ${onlyKey ? html`<p class="muted">Nothing is stored about this entity yet: only its key (from the urn) is shown.</p>` : null}
      <section class="panel summary" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        <${DescriptionEditor} entity=${entity} fallback=${s.description} onSaved=${reload} />
        <dl class="record">
          ${s.platform ? html`<div><dt>Platform</dt><dd>${s.platform}</dd></div>` : null}
          ${s.origin ? html`<div><dt>Origin</dt><dd>${s.origin}</dd></div>` : null}
          ${editable('ownership') ? html`<div><dt>Owners</dt><dd><${OwnersEditor} entity=${entity} prefix=${prefix} onSaved=${reload} names=${ownerNames} /></dd></div>`
            : s.owners.length ? html`<div><dt>Owners</dt><dd><ul class="inline-list">${s.owners.map((o) => html`<li><${UrnLink} urn=${o.urn}>${ownerNames[o.urn] ?? urnLabel(o.urn)}</${UrnLink}> <span class="muted">${o.type ? humanize(o.type.toLowerCase()) : ''}</span></li>`)}</ul></dd></div>` : null}
          ${editable('globalTags') ? html`<div><dt>Tags</dt><dd><${TagsEditor} entity=${entity} prefix=${prefix} onSaved=${reload} /></dd></div>`
            : s.tags.length ? html`<div><dt>Tags</dt><dd><${Chips} urns=${s.tags} kind="tag" label="Tags" /></dd></div>` : null}
          ${editable('glossaryTerms') ? html`<div><dt>Glossary terms</dt><dd><${TermsEditor} entity=${entity} prefix=${prefix} onSaved=${reload} /></dd></div>`
            : s.terms.length ? html`<div><dt>Glossary terms</dt><dd><${Chips} urns=${s.terms} kind="term" label="Glossary terms" /></dd></div>` : null}
          ${editable('institutionalMemory') ? html`<div><dt>Documentation</dt><dd><${LinksEditor} entity=${entity} prefix=${prefix} onSaved=${reload} /></dd></div>`
            : docs.length ? html`<div><dt>Documentation</dt><dd><ul class="docs">${docs.map((d) => html`<li><${Value} value=${d.url} /> ${d.description ? html`<span>${d.description}</span>` : null}</li>`)}</ul></dd></div>` : null}
        </dl>
      </section>
      ${aspects.schemaMetadata ? html`<${SchemaTable} schema=${aspects.schemaMetadata.value} editable=${aspects.editableSchemaMetadata?.value} entity=${entity} prefix=${prefix} onSaved=${reload} />` : null}
      <${TimeseriesSection} urn=${entity.urn} entityName=${entity.entityName} aspects=${(spec?.aspects ?? []).filter((a) => a.timeseries)} />
      <${Relationships} urn=${entity.urn} entityType=${entity.entityName} />
      <section class="panel" aria-labelledby="aspects-title">
        <h2 id="aspects-title">Aspects <span class="count">${shown.length}</span></h2>
        ${shown.map((a) => html`<${AspectCard} key=${`${a.name}#${generation}`} urn=${entity.urn} aspect=${aspects[a.name]} isKey=${a.name === spec.keyAspect} />`)}
      </section>
    </article>`
}
