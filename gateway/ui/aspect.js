// Any aspect, rendered readably from its value alone (no renderer per aspect): objects as labelled lists, arrays
// of records as tables, urns as links, times as dates; raw JSON one click away; version history with a diff of
// any two versions (jsdiff's diffJson).
import { diffJson } from 'diff'
import { useEffect, useState } from 'preact/hooks'
import * as api from './api.js'
import { ErrorBox, UrnLink, formatTime, html, humanize, isUrn } from './util.js'

const isTimeField = (key) => /(^time$|Time$|timestamp|Millis$|^lastObserved$)/i.test(key ?? '')
const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)

export function Value({ value, field }) {
  if (value === null || value === undefined) return html`<span class="muted">—</span>`
  if (typeof value === 'boolean') return html`<span>${value ? 'yes' : 'no'}</span>`
  if (typeof value === 'number') return isTimeField(field) && value > 1e11 ? html`<time datetime=${new Date(value).toISOString()}>${formatTime(value)}</time>` : html`<span>${value.toLocaleString('en')}</span>`
  if (typeof value === 'string') {
    if (isUrn(value)) return html`<${UrnLink} urn=${value} />`
    if (/^https?:\/\//.test(value)) return html`<a href=${value} rel="noopener noreferrer" target="_blank">${value}</a>`
    if (value.length > 400 || value.includes('\n')) return html`<details class="long"><summary>${value.slice(0, 80)}…</summary><pre>${value}</pre></details>`
    return html`<span>${value}</span>`
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">none</span>`
    if (value.every(isScalar)) return html`<ul class="inline-list">${value.map((v) => html`<li><${Value} value=${v} field=${field} /></li>`)}</ul>`
    if (value.every(isRecord)) return html`<${RecordTable} rows=${value} />`
    return html`<ol>${value.map((v) => html`<li><${Value} value=${v} field=${field} /></li>`)}</ol>`
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return html`<span class="muted">empty</span>`
  // A union member wrapped in its record name ({"com.svc.schema.BooleanType": {}}): show the short name.
  if (entries.length === 1 && /^[a-z]+(\.[A-Za-z0-9_]+)+$/.test(entries[0][0])) {
    const [name, inner] = entries[0]
    const short = name.split('.').pop()
    return isRecord(inner) && Object.keys(inner).length === 0 ? html`<span>${short}</span>` : html`<div><span class="union">${short}</span><${Value} value=${inner} /></div>`
  }
  return html`<dl class="record">${entries.map(([k, v]) => html`<div><dt>${humanize(k)}</dt><dd><${Value} value=${v} field=${k} /></dd></div>`)}</dl>`
}

/** An array of records as a table: columns are the keys in first-seen order. */
function RecordTable({ rows }) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  return html`
    <div class="table-wrap"><table class="records">
      <thead><tr>${columns.map((c) => html`<th scope="col">${humanize(c)}</th>`)}</tr></thead>
      <tbody>${rows.map((r) => html`<tr>${columns.map((c) => html`<td><${Value} value=${r[c]} field=${c} /></td>`)}</tr>`)}</tbody>
    </table></div>`
}

/** What changed from `before` to `after`, as lines of pretty JSON (jsdiff). */
export function Diff({ before, after }) {
  const parts = diffJson(before ?? {}, after ?? {})
  const changed = parts.some((p) => p.added || p.removed)
  return html`
    <pre class="diff" aria-label="Differences">${parts.map((p) => {
      if (p.added) return html`<ins>${p.value.replace(/^(?=.)/gm, '+ ')}</ins>`
      if (p.removed) return html`<del>${p.value.replace(/^(?=.)/gm, '- ')}</del>`
      const lines = p.value.replace(/\n$/, '').split('\n')
      const kept = lines.length > 6 ? [...lines.slice(0, 2), '  …', ...lines.slice(-2)] : lines
      return html`<span class="same">${kept.map((l) => (l === '  …' ? l : `  ${l}`)).join('\n')}\n</span>`
    })}</pre>
    ${changed ? null : html`<p class="muted">No differences.</p>`}`
}

function History({ urn, aspect }) {
  const [data, setData] = useState()
  const [error, setError] = useState()
  const [pair, setPair] = useState()
  useEffect(() => {
    api.versions(urn, aspect).then((d) => {
      setData(d)
      setPair([d.versions.length > 1 ? d.versions[1].version : 0, 0])
    }, setError)
  }, [urn, aspect])
  if (error) return html`<${ErrorBox} error=${error} />`
  if (!data) return html`<p class="loading">Loading history…</p>`
  const byVersion = new Map(data.versions.map((v) => [v.version, v]))
  const label = (v) => (v.version === 0 ? `latest (${formatTime(v.created.time)})` : `v${v.version} (${formatTime(v.created.time)})`)
  const select = (i, name) => html`
    <label>${name} <select value=${pair[i]} onChange=${(e) => setPair(i === 0 ? [Number(e.currentTarget.value), pair[1]] : [pair[0], Number(e.currentTarget.value)])}>
      ${data.versions.map((v) => html`<option value=${v.version}>${label(v)}</option>`)}
    </select></label>`
  return html`
    <div class="history">
      <table class="records versions">
        <caption>${data.total} version${data.total === 1 ? '' : 's'} (0 is the latest, 1 the oldest)</caption>
        <thead><tr><th scope="col">Version</th><th scope="col">Written</th><th scope="col">By</th></tr></thead>
        <tbody>${data.versions.map((v) => html`<tr><td>${v.version === 0 ? 'latest' : v.version}</td><td>${formatTime(v.created.time)}</td><td><${Value} value=${v.created.actor} /></td></tr>`)}</tbody>
      </table>
      ${data.versions.length > 1 ? html`
        <div class="compare">${select(0, 'Compare')} ${select(1, 'with')}</div>
        <${Diff} before=${byVersion.get(pair[0])?.value} after=${byVersion.get(pair[1])?.value} />` : html`<p class="muted">Only one version so far.</p>`}
    </div>`
}

/** One aspect: readable by default, raw JSON or history on demand. */
export function AspectCard({ urn, aspect, isKey, children }) {
  const [view, setView] = useState('readable')
  const id = `aspect-${aspect.name}`
  const toggle = (v) => setView(view === v ? 'readable' : v)
  return html`
    <section class="aspect" aria-labelledby=${id} data-aspect=${aspect.name}>
      <header>
        <h3 id=${id}>${humanize(aspect.name)}${isKey ? html` <span class="badge subtle">key</span>` : null}</h3>
        <span class="stamp">written ${formatTime(aspect.created?.time)} by <${Value} value=${aspect.created?.actor} /></span>
        <div class="aspect-actions">
          <button type="button" class="secondary" aria-pressed=${view === 'raw'} onClick=${() => toggle('raw')}>Raw JSON</button>
          ${isKey ? null : html`<button type="button" class="secondary" aria-pressed=${view === 'history'} onClick=${() => toggle('history')}>History</button>`}
        </div>
      </header>
      ${view === 'raw' ? html`<pre class="raw">${JSON.stringify(aspect.value, null, 2)}</pre>`
        : view === 'history' ? html`<${History} urn=${urn} aspect=${aspect.name} />`
          : children ?? html`<${Value} value=${aspect.value} />`}
    </section>`
}
