// Browse: the entity types with their counts (the same as search counts: every live entity of the type), then
// each type's browse paths as folders (with the number of entities below them) down to the entities listed there.
// Types without browse paths (users, groups, tags, platforms...) list their entities flat, in name order.
import { useEffect, useState } from 'preact/hooks'
import * as api from './api.js'
import { markdownExcerpt } from './markdown.js'
import { ErrorBox, TypeBadge, browseHref, entityHref, entitySpec, html, searchHref, summarize, typeLabel } from './util.js'

const PAGE = 50

/** Whether a type has browse paths at all (else its entities are listed flat). */
const hasPaths = (type) => (entitySpec(type)?.aspects ?? []).some((a) => a.name === 'browsePaths')

function Types({ registry }) {
  const [counts, setCounts] = useState()
  const [error, setError] = useState()
  useEffect(() => {
    Promise.all(registry.entities.map((e) => api.search(e.name, '*', 0, 0).then((v) => v.numEntities, () => 0)))
      .then(setCounts, setError)
  }, [])
  return html`
    <h1>Browse</h1>
    <${ErrorBox} error=${error} />
    <ul class="folders" aria-label="Entity types">
      ${registry.entities.map((e, i) => html`<li><a href=${browseHref(e.name, '/')}><span class="folder-icon" aria-hidden="true">▸</span>${typeLabel(e.name)}</a>
        ${counts ? html`<span class="count">${counts[i]}</span>` : null}</li>`)}
    </ul>`
}

export function BrowsePage({ type, params, registry }) {
  const path = params.get('path') || '/'
  const start = Math.max(0, Number(params.get('start') ?? 0) || 0)
  const [data, setData] = useState()
  const [names, setNames] = useState({})
  const [error, setError] = useState()
  const [total, setTotal] = useState()
  const flat = type && !hasPaths(type)
  useEffect(() => {
    if (!type) return undefined
    let live = true // an earlier folder's answer arriving late is dropped
    setData(undefined)
    setError(undefined)
    api.search(type, '*', 0, 0).then((v) => { if (live) setTotal(v.numEntities) }, () => {})
    const listing = flat
      ? api.search(type, '*', start, PAGE, undefined, 'name').then((v) => ({ numEntities: v.numEntities, entities: v.entities.map((urn) => ({ urn, name: urn })), metadata: { groups: [], totalNumEntities: v.numEntities } }))
      : api.browse(type, path, start, PAGE)
    listing.then(async (value) => {
      if (!live) return
      setData(value)
      const urns = value.entities.map((e) => e.urn)
      const names = urns.length ? await api.entities(urns).catch(() => ({})) : {}
      if (live) setNames(names)
    }, (err) => { if (live) setError(err) })
    return () => { live = false }
  }, [type, path, start])
  if (!type) return html`<${Types} registry=${registry} />`
  const parts = path.split('/').filter(Boolean)
  const crumbs = [{ label: typeLabel(type), path: '/' }, ...parts.map((p, i) => ({ label: p, path: `/${parts.slice(0, i + 1).join('/')}` }))]
  const child = (name) => `${path.replace(/\/$/, '')}/${name}`
  return html`
    <nav class="breadcrumbs" aria-label="Breadcrumbs">
      <ol>
        <li><a href="#/browse">Browse</a></li>
        ${crumbs.map((c, i) => html`<li>${i === crumbs.length - 1 ? html`<span aria-current="page">${c.label}</span>` : html`<a href=${browseHref(type, c.path)}>${c.label}</a>`}</li>`)}
      </ol>
    </nav>
    <h1>${typeLabel(type)} <span class="path">${flat ? '' : path}</span></h1>
    ${flat ? html`<p class="muted">${typeLabel(type)} entities have no browse paths: all ${total ?? ''} are listed here by name.</p>` : null}
    ${!flat && path === '/' && data && total !== undefined && total > data.metadata.totalNumEntities ? html`<p class="muted">${total - data.metadata.totalNumEntities} of the ${total} have no browse path:
      <a href=${searchHref({ type })}>see every ${typeLabel(type)} in search</a>.</p>` : null}
    <${ErrorBox} error=${error} />
    ${data ? html`
      <ul class="folders" aria-label="Folders">
        ${data.metadata.groups.map((g) => html`<li><a href=${browseHref(type, child(g.name))}><span class="folder-icon" aria-hidden="true">▸</span>${g.name}</a> <span class="count">${g.count}</span></li>`)}
      </ul>
      ${data.entities.length ? html`
        <h2>Entities here</h2>
        <ul class="browse-entities">
          ${data.entities.map((e) => {
            const s = names[e.urn] ? summarize(names[e.urn]) : undefined
            return html`<li><${TypeBadge} type=${type} /> <a href=${entityHref(e.urn)}>${s?.name ?? e.name}</a>${s?.description ? html` <span class="description">${markdownExcerpt(s.description, 120)}</span>` : null}</li>`
          })}
        </ul>` : null}
      ${data.metadata.groups.length === 0 && data.entities.length === 0 ? html`<p>Nothing here.</p>` : null}
      <nav class="pager" aria-label="Pages">
        ${start > 0 ? html`<a href=${`${browseHref(type, path)}&start=${Math.max(0, start - PAGE)}`}>← Previous</a>` : null}
        ${start + data.entities.length < data.numEntities ? html`<a href=${`${browseHref(type, path)}&start=${start + PAGE}`}>Next →</a>` : null}
      </nav>` : error ? null : html`<p class="loading">Loading…</p>`}`
}
