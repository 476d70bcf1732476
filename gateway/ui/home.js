// The home page: what the catalogue holds (entities by type and by platform), what changed lately (the change log,
// through GET /changes/recent), and the most used tags, glossary terms and owners (the search facets summed over
// every type). Searching from here opens the search page; results are never listed here.
import { useEffect, useState } from 'preact/hooks'
import * as api from './api.js'
import { ErrorBox, TypeBadge, UrnLink, formatTime, html, humanize, searchHref, summarize, typeLabel, urnLabel } from './util.js'

/** Every type's total and facets from one match-all search each (no hits asked for). */
async function overview(registry) {
  const answers = await Promise.all(registry.entities.map((e) => api.search(e.name, '*', 0, 0).then((v) => ({ entity: e.name, value: v }), () => ({ entity: e.name }))))
  const facets = new Map()
  for (const { value } of answers) {
    for (const meta of value?.metadata?.searchResultMetadatas ?? []) {
      const sums = facets.get(meta.name) ?? new Map()
      for (const [k, n] of Object.entries(meta.aggregations ?? {})) sums.set(k, (sums.get(k) ?? 0) + n)
      facets.set(meta.name, sums)
    }
  }
  const top = (name, limit = 10) => [...(facets.get(name) ?? new Map())].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit)
  return {
    types: answers.map((a) => ({ name: a.entity, count: a.value?.numEntities ?? 0 })).filter((t) => t.count > 0).sort((a, b) => b.count - a.count),
    platforms: top('platform', 12),
    tags: top('tags'),
    terms: top('glossaryTerms'),
    owners: top('owners'),
  }
}

/** The latest changes, one line per entity (its newest change), with the entities' names. */
async function recent(limit = 12) {
  const changes = await api.recentChanges(100)
  const seen = new Set()
  const latest = changes.filter((c) => c.urn && !seen.has(c.urn) && seen.add(c.urn)).slice(0, limit)
  const names = latest.length ? await api.entities(latest.map((c) => c.urn)).catch(() => ({})) : {}
  return latest.map((c) => ({ ...c, name: names[c.urn] ? summarize(names[c.urn]).name : urnLabel(c.urn) }))
}

const filterHref = (field, value) => searchHref({ f: `${field}|EQUAL|${value}` })

function Counted({ title, rows, href, label }) {
  return html`
    <section class="panel home-card" aria-labelledby=${`home-${title}`}>
      <h2 id=${`home-${title}`}>${title}</h2>
      ${rows.length === 0 ? html`<p class="muted">None yet.</p>` : html`
        <ul class="counted" aria-label=${title}>${rows.map(([value, count]) => html`<li><a href=${href(value)}>${label(value)}</a> <span class="count">${count}</span></li>`)}</ul>`}
    </section>`
}

export function HomePage({ registry }) {
  const [data, setData] = useState()
  const [changes, setChanges] = useState()
  const [error, setError] = useState()
  const [q, setQ] = useState('')
  useEffect(() => {
    overview(registry).then(setData, setError)
    recent().then(setChanges, setError)
  }, [])
  const total = data?.types.reduce((n, t) => n + t.count, 0)
  return html`
    <h1>Catalogue</h1>
    <form class="search-box" role="search" onSubmit=${(e) => { e.preventDefault(); location.hash = searchHref({ q: q.trim() || undefined }).slice(1) }}>
      <label for="home-q" class="visually-hidden">Search the catalogue</label>
      <div class="combo"><input id="home-q" type="search" value=${q} onInput=${(e) => setQ(e.currentTarget.value)} placeholder="Search datasets, charts, people, tags…" /></div>
      <button type="submit">Search</button>
    </form>
    <${ErrorBox} error=${error} />
    <div class="home-grid">
      <section class="panel home-card" aria-labelledby="home-types">
        <h2 id="home-types">By type ${data ? html`<span class="count">${total} entities</span>` : null}</h2>
        ${data ? html`<ul class="counted" aria-label="Entities by type">${data.types.map((t) => html`<li><a href=${searchHref({ type: t.name })}>${typeLabel(t.name)}</a> <span class="count">${t.count}</span></li>`)}</ul>` : html`<p class="loading">Counting…</p>`}
      </section>
      ${data ? html`<${Counted} title="By platform" rows=${data.platforms} href=${(v) => filterHref('platform', v)} label=${urnLabel} />` : null}
      <section class="panel home-card recent" aria-labelledby="home-recent">
        <h2 id="home-recent">Recently changed</h2>
        ${changes ? (changes.length === 0 ? html`<p class="muted">Nothing changed yet.</p>` : html`
          <ol class="recent-list" aria-label="Recently changed">${changes.map((c) => html`<li>
            <${TypeBadge} type=${c.entityType} /> <${UrnLink} urn=${c.urn}>${c.name}</${UrnLink}>
            <span class="muted">${c.changeType === 'DELETE' ? 'deleted' : 'changed'} ${humanize(c.aspectName)} · ${formatTime(c.created.time)} · ${urnLabel(c.created.actor)}</span></li>`)}</ol>`)
          : html`<p class="loading">Reading the change log…</p>`}
      </section>
      ${data ? html`
        <${Counted} title="Most used tags" rows=${data.tags} href=${(v) => filterHref('tags', v)} label=${urnLabel} />
        <${Counted} title="Most used glossary terms" rows=${data.terms} href=${(v) => filterHref('glossaryTerms', v)} label=${urnLabel} />
        <${Counted} title="Top owners" rows=${data.owners} href=${(v) => filterHref('owners', v)} label=${urnLabel} />` : null}
    </div>`
}
