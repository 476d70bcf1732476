// Search: one box with autocomplete, results across every entity type the registry knows (one search
// request per type, in parallel), facets with counts (entity type, then the registry's facet fields), filter
// conditions, paging. Everything is in the URL hash, so a search can be bookmarked and the back button works.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import * as api from './api.js'
import { markdownExcerpt } from './markdown.js'
import { Chips, ErrorBox, TypeBadge, UrnLinks, entityHref, html, humanize, isUrn, searchHref, summarize, typeLabel, urnLabel } from './util.js'

const PAGE = 10
export const CONDITIONS = ['EQUAL', 'CONTAIN', 'START_WITH', 'END_WITH', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL_TO', 'LESS_THAN', 'LESS_THAN_OR_EQUAL_TO']

/** Filters travel in the hash as `[!]field|CONDITION|value`. */
const parseFilter = (text) => {
  const negated = text.startsWith('!')
  const [field, condition, ...value] = text.slice(negated ? 1 : 0).split('|')
  return { field, condition: CONDITIONS.includes(condition) ? condition : 'EQUAL', value: value.join('|'), negated }
}
const formatFilter = (f) => `${f.negated ? '!' : ''}${f.field}|${f.condition}|${f.value}`

/** The API's filter: one `and` group; facet picks on one field are "any of" (`values`). */
export function toFilter(filters) {
  if (filters.length === 0) return undefined
  const anyOf = new Map()
  const and = []
  for (const f of filters) {
    if (f.condition === 'EQUAL' && !f.negated) anyOf.set(f.field, [...(anyOf.get(f.field) ?? []), f.value])
    else and.push({ field: f.field, value: f.value, condition: f.condition, ...(f.negated ? { negated: true } : {}) })
  }
  for (const [field, values] of anyOf) and.push(values.length === 1 ? { field, value: values[0], condition: 'EQUAL' } : { field, value: values[0], values, condition: 'EQUAL' })
  return { or: [{ and }] }
}

export const SORTS = [['relevance', 'Relevance'], ['name', 'Name'], ['lastChanged', 'Last changed']]

/** What a sort compares across types (the API sorts within one type): the name, or the newest aspect's time. */
const sortKey = (sort, entity) => (sort === 'name'
  ? summarize(entity).name.toLowerCase()
  : Math.max(0, ...Object.values(entity?.aspects ?? {}).map((a) => a.created?.time ?? 0)))

/** Runs a search over the entity types that have every filtered field; pages across types in registry order. */
async function runSearch(registry, { q, type, filters, start, sort }) {
  const input = q.trim() || '*'
  const eligible = registry.entities.filter((e) => filters.every((f) => e.searchFields.some((s) => s.name === f.field)))
  const filter = toFilter(filters)
  const errors = []
  const one = async (e, from, count) => {
    try {
      return await api.search(e.name, input, from, count, filter, sort === 'relevance' ? undefined : sort)
    } catch (err) {
      if (err.status === 401 || err.status === 403 || !err.status || err.status >= 500) throw err
      errors.push(err) // e.g. a field:value query on a field this type does not have
      return undefined
    }
  }
  // Sorted across types: each type's first start+PAGE in that order, merged here by the same key.
  const mergeSorted = !type && sort !== 'relevance'
  const first = await Promise.all(eligible.map((e) => {
    if (type) return one(e, e.name === type ? start : 0, e.name === type ? PAGE : 0)
    if (mergeSorted) return one(e, 0, start + PAGE)
    return one(e, 0, start === 0 ? PAGE : 0)
  }))
  const byType = eligible.map((e, i) => ({ entity: e, result: first[i], total: first[i]?.numEntities ?? 0 }))
  let urns = []
  let total = 0
  if (type) {
    const mine = byType.find((t) => t.entity.name === type)
    urns = mine?.result?.entities ?? []
    total = mine?.total ?? 0
  } else if (mergeSorted) {
    total = byType.reduce((n, t) => n + t.total, 0)
    const candidates = byType.flatMap((t) => t.result?.entities ?? [])
    const all = candidates.length ? await api.entities(candidates) : {}
    const keyed = candidates.map((urn) => ({ urn, key: sortKey(sort, all[urn] ?? { urn }) }))
    keyed.sort((a, b) => (sort === 'name' ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : b.key - a.key) || (a.urn < b.urn ? -1 : 1))
    urns = keyed.slice(start, start + PAGE).map((k) => k.urn)
  } else {
    total = byType.reduce((n, t) => n + t.total, 0)
    if (start === 0) {
      urns = byType.flatMap((t) => t.result?.entities ?? []).slice(0, PAGE)
    } else {
      let offset = 0
      const slices = []
      for (const t of byType) {
        const from = Math.max(start - offset, 0)
        const to = Math.min(start + PAGE - offset, t.total)
        if (to > from) slices.push({ t, from, count: to - from })
        offset += t.total
      }
      const pages = await Promise.all(slices.map((s) => one(s.t.entity, s.from, s.count)))
      urns = pages.flatMap((p) => p?.entities ?? [])
    }
  }
  // Facets: the chosen type's, else summed over the types.
  const facets = new Map()
  for (const t of byType) {
    if (type && t.entity.name !== type) continue
    for (const meta of t.result?.metadata?.searchResultMetadatas ?? []) {
      const buckets = facets.get(meta.name) ?? new Map()
      for (const [value, count] of Object.entries(meta.aggregations ?? {})) buckets.set(value, (buckets.get(value) ?? 0) + count)
      facets.set(meta.name, buckets)
    }
  }
  const matches = new Map()
  for (const t of byType) {
    (t.result?.metadata?.urns ?? []).forEach((urn, i) => matches.set(urn, t.result.metadata.matches?.[i]?.matchedFields ?? []))
  }
  const details = urns.length ? await api.entities(urns) : {}
  const allFailed = errors.length > 0 && errors.length === eligible.length
  return { byType, urns, total, facets, matches, details, error: allFailed ? errors[0] : undefined }
}

/** The search box: a combobox whose suggestions come from every type's autocomplete fields. */
function SearchBox({ registry, initial, type, onSearch }) {
  const [text, setText] = useState(initial)
  const [suggestions, setSuggestions] = useState([])
  const [active, setActive] = useState(-1)
  const [open, setOpen] = useState(false)
  const seq = useRef(0)
  useEffect(() => setText(initial), [initial])
  const types = registry.entities.filter((e) => (!type || e.name === type) && e.searchFields.some((f) => f.autocomplete))
  useEffect(() => {
    const query = text.trim()
    if (!open || query.length < 1 || query.includes(':')) { setSuggestions([]); return undefined }
    const mine = ++seq.current
    const timer = setTimeout(async () => {
      const lists = await Promise.all(types.map((e) => api.autocomplete(e.name, query, 5).then((v) => v.suggestions.map((s) => ({ text: s, type: e.name })), () => [])))
      if (mine !== seq.current) return
      const seen = new Set()
      setSuggestions(lists.flat().filter((s) => !seen.has(`${s.type}\u0000${s.text}`) && seen.add(`${s.type}\u0000${s.text}`)).slice(0, 10))
      setActive(-1)
    }, 120)
    return () => clearTimeout(timer)
  }, [text, open, type])
  const pick = (s) => { setOpen(false); setText(s.text); onSearch(s.text, s.type) }
  const onKeyDown = (e) => {
    if (e.key === 'ArrowDown' && suggestions.length) { e.preventDefault(); setOpen(true); setActive((a) => (a + 1) % suggestions.length) }
    else if (e.key === 'ArrowUp' && suggestions.length) { e.preventDefault(); setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1)) }
    else if (e.key === 'Escape') { setOpen(false); setSuggestions([]) }
    else if (e.key === 'Enter' && active >= 0 && suggestions[active]) { e.preventDefault(); pick(suggestions[active]) }
  }
  const shown = open && suggestions.length > 0
  return html`
    <form class="search-box" role="search" onSubmit=${(e) => { e.preventDefault(); setOpen(false); onSearch(text, type) }}>
      <label for="q" class="visually-hidden">Search the catalogue</label>
      <div class="combo">
        <input id="q" type="search" value=${text} autocomplete="off" spellcheck="false"
          placeholder="Search datasets, charts, people, tags… (words, or field:value)"
          role="combobox" aria-autocomplete="list" aria-expanded=${shown} aria-controls="suggestions"
          aria-activedescendant=${active >= 0 ? `suggestion-${active}` : undefined}
          onInput=${(e) => { setText(e.currentTarget.value); setOpen(true) }} onKeyDown=${onKeyDown}
          onBlur=${() => setTimeout(() => setOpen(false), 150)} />
        <ul id="suggestions" role="listbox" aria-label="Suggestions" hidden=${!shown}>
          ${suggestions.map((s, i) => html`
            <li id=${`suggestion-${i}`} role="option" aria-selected=${i === active} class=${i === active ? 'active' : ''}
              onMouseDown=${(e) => { e.preventDefault(); pick(s) }}>
              <span>${s.text}</span> <${TypeBadge} type=${s.type} />
            </li>`)}
        </ul>
      </div>
      <button type="submit">Search</button>
    </form>`
}

function FacetGroup({ title, buckets, selected, onToggle, format }) {
  const [all, setAll] = useState(false)
  const sorted = [...buckets].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
  const shown = all ? sorted : sorted.slice(0, 8)
  return html`
    <fieldset class="facet">
      <legend>${title}</legend>
      ${shown.map(([value, count]) => {
        const id = `facet-${title}-${value}`.replace(/[^A-Za-z0-9_-]/g, '_')
        return html`<div class="facet-value">
          <input type="checkbox" id=${id} checked=${selected(value)} onChange=${() => onToggle(value)} />
          <label for=${id} title=${value}>${format(value)} <span class="count">${count}</span></label>
        </div>`
      })}
      ${sorted.length > 8 ? html`<button type="button" class="link" onClick=${() => setAll(!all)}>${all ? 'Fewer' : `All ${sorted.length}`}</button>` : null}
    </fieldset>`
}

function ConditionForm({ fields, onAdd }) {
  const [field, setField] = useState(fields[0] ?? '')
  const [condition, setCondition] = useState('EQUAL')
  const [value, setValue] = useState('')
  const [negated, setNegated] = useState(false)
  return html`
    <details class="conditions">
      <summary>Filter conditions</summary>
      <form onSubmit=${(e) => { e.preventDefault(); if (field && value) { onAdd({ field, condition, value, negated }); setValue('') } }}>
        <label>Field <select value=${field} onChange=${(e) => setField(e.currentTarget.value)}>${fields.map((f) => html`<option value=${f}>${f}</option>`)}</select></label>
        <label>Condition <select value=${condition} onChange=${(e) => setCondition(e.currentTarget.value)}>${CONDITIONS.map((c) => html`<option value=${c}>${humanize(c.toLowerCase())}</option>`)}</select></label>
        <label>Value <input value=${value} onInput=${(e) => setValue(e.currentTarget.value)} /></label>
        <label class="inline"><input type="checkbox" checked=${negated} onChange=${(e) => setNegated(e.currentTarget.checked)} /> Not</label>
        <button type="submit">Add condition</button>
      </form>
    </details>`
}

function Result({ urn, entity, matched }) {
  const s = summarize(entity ?? { urn })
  return html`
    <li class="result">
      <div class="result-head">
        <${TypeBadge} type=${s.type} />
        <a class="result-name" href=${entityHref(urn)}>${s.name}</a>
        ${s.platform ? html`<span class="platform">${s.platform}</span>` : null}
        ${s.origin ? html`<span class="origin">${s.origin}</span>` : null}
      </div>
      ${s.description ? html`<p class="description">${markdownExcerpt(s.description, 240)}</p>` : null}
      <div class="result-meta">
        ${s.owners.length ? html`<span>Owners: <${UrnLinks} urns=${s.owners.map((o) => o.urn)} label="Owners" /></span>` : null}
        <${Chips} urns=${s.tags} kind="tag" label="Tags" />
        <${Chips} urns=${s.terms} kind="term" label="Glossary terms" />
      </div>
      ${matched?.length ? html`<div class="matched">Matched ${matched.slice(0, 3).map((m) => `${m.name}: ${m.value}`).join('; ')}</div>` : null}
    </li>`
}

export function SearchPage({ params, registry }) {
  const q = params.get('q') ?? ''
  const type = params.get('type') ?? ''
  const filters = params.getAll('f').map(parseFilter)
  const start = Math.max(0, Number(params.get('start') ?? 0) || 0)
  const sort = SORTS.some(([s]) => s === params.get('sort')) ? params.get('sort') : 'relevance'
  const state = { q, type, filters, start, sort }
  const go = (change) => {
    const next = { ...state, start: 0, ...change }
    location.hash = searchHref({ q: next.q, type: next.type, f: next.filters.map(formatFilter), sort: next.sort === 'relevance' ? undefined : next.sort, start: next.start || undefined }).slice(1)
  }
  const pageHref = (from) => searchHref({ q, type, f: params.getAll('f'), sort: sort === 'relevance' ? undefined : sort, start: from || undefined })
  const key = params.toString()
  // What is shown answers `done.key`: while another search runs, the page says it is busy (and dims the old one).
  const [done, setDone] = useState({})
  // A layout effect: the requests leave right after the render instead of after the next frame is painted.
  useLayoutEffect(() => {
    let live = true
    runSearch(registry, state).then((d) => { if (live) setDone({ key, data: { ...d, q }, error: d.error }) },
      (error) => { if (live) setDone((prev) => ({ key, data: prev.data, error })) })
    return () => { live = false }
  }, [key])
  const { data, error } = done
  const loading = done.key !== key

  const facetFields = useMemo(() => {
    const fields = new Map()
    for (const e of registry.entities) for (const f of e.searchFields) if (!type || e.name === type) fields.set(f.name, f)
    return fields
  }, [registry, type])
  const isSelected = (field, value) => filters.some((f) => f.field === field && f.condition === 'EQUAL' && !f.negated && f.value === value)
  const toggle = (field, value) => go({
    filters: isSelected(field, value) ? filters.filter((f) => !(f.field === field && f.condition === 'EQUAL' && !f.negated && f.value === value))
      : [...filters, { field, condition: 'EQUAL', value, negated: false }],
  })
  const end = Math.min(start + PAGE, data?.total ?? 0)
  return html`
    <h1 class="visually-hidden">Search</h1>
    <${SearchBox} registry=${registry} initial=${q} type=${type} onSearch=${(text, t) => go({ q: text, type: t ?? type })} />
    ${filters.length ? html`<ul class="active-filters" aria-label="Active filters">
      ${filters.map((f, i) => html`<li><span>${f.negated ? 'not ' : ''}${f.field} ${humanize(f.condition.toLowerCase()).toLowerCase()} ${isUrn(f.value) ? urnLabel(f.value) : f.value}</span>
        <button type="button" class="remove" aria-label=${`Remove filter ${f.field} ${f.value}`} onClick=${() => go({ filters: filters.filter((_, j) => j !== i) })}>×</button></li>`)}
      <li><button type="button" class="link" onClick=${() => go({ filters: [] })}>Clear all</button></li>
    </ul>` : null}
    <div class="search-layout">
      <aside class=${`facets${loading ? ' stale' : ''}`} aria-label="Facets">
        ${data ? html`
          <fieldset class="facet">
            <legend>Entity type</legend>
            <div class="facet-value"><input type="radio" name="etype" id="etype-all" checked=${!type} onChange=${() => go({ type: '' })} />
              <label for="etype-all">All types <span class="count">${data.byType.reduce((n, t) => n + t.total, 0)}</span></label></div>
            ${data.byType.filter((t) => t.total > 0 || t.entity.name === type).map((t) => html`
              <div class="facet-value"><input type="radio" name="etype" id=${`etype-${t.entity.name}`} checked=${type === t.entity.name} onChange=${() => go({ type: t.entity.name })} />
                <label for=${`etype-${t.entity.name}`}>${typeLabel(t.entity.name)} <span class="count">${t.total}</span></label></div>`)}
          </fieldset>
          ${[...data.facets].filter(([, b]) => b.size > 0).map(([name, buckets]) => html`
            <${FacetGroup} key=${name} title=${name} buckets=${buckets} selected=${(v) => isSelected(name, v)} onToggle=${(v) => toggle(name, v)}
              format=${(v) => (isUrn(v) ? urnLabel(v) : v)} />`)}
          <${ConditionForm} fields=${[...facetFields.keys()].sort()} onAdd=${(f) => go({ filters: [...filters, f] })} />
        ` : null}
      </aside>
      <section class=${`results${loading ? ' stale' : ''}`} aria-label="Results" aria-busy=${loading ? 'true' : 'false'}>
        <${ErrorBox} error=${error} />
        ${data ? html`
          <div class="result-bar">
            <p class="result-count" role="status">${data.total === 0 ? 'No results' : `${start + 1}–${end} of ${data.total} results`}${data.q.trim() && data.q.trim() !== '*' ? ` for “${data.q}”` : ''}</p>
            <label>Sort by <select value=${sort} onChange=${(e) => go({ sort: e.currentTarget.value })}>${SORTS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></label>
          </div>
          <ol class="result-list" start=${start + 1}>
            ${data.urns.map((urn) => html`<${Result} key=${urn} urn=${urn} entity=${data.details[urn]} matched=${data.matches.get(urn)} />`)}
          </ol>
          <nav class="pager" aria-label="Pages">
            ${start > 0 ? html`<a href=${pageHref(Math.max(0, start - PAGE))}>← Previous</a>` : null}
            ${end < data.total ? html`<a href=${pageHref(start + PAGE)}>Next →</a>` : null}
          </nav>` : loading ? html`<p class="loading">Searching…</p>` : null}
      </section>
    </div>`
}
