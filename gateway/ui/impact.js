// Impact analysis: everything downstream of an entity (up to 20 hops, GET /lineage/graph), each with its distance,
// as a table, and as a CSV file to take elsewhere.
import { useState } from 'preact/hooks'
import * as api from './api.js'
import { ErrorBox, TypeBadge, UrnLink, html, summarize, typeLabel, urnLabel } from './util.js'

const MAX_HOPS = 20

/** One CSV cell: quoted, quotes doubled, and a leading =, +, - or @ defused so spreadsheets do not run it. */
export const csvCell = (value) => {
  const text = String(value ?? '')
  return `"${(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`
}
export const toCsv = (rows) => rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'

async function impactOf(urn) {
  const walk = await api.lineageGraph(urn, 'DOWNSTREAM', MAX_HOPS)
  const details = walk.nodes.length ? await api.entities(walk.nodes.slice(0, 1000).map((n) => n.urn)).catch(() => ({})) : {}
  const rows = walk.nodes.map((n) => {
    const s = details[n.urn] ? summarize(details[n.urn]) : undefined
    return { urn: n.urn, distance: n.hops, name: s?.name ?? urnLabel(n.urn), type: details[n.urn]?.entityName ?? n.urn.split(':')[2], platform: s?.platform ?? '' }
  })
  rows.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
  return { rows, truncated: walk.truncated }
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export function ImpactAnalysis({ urn, name }) {
  const [data, setData] = useState()
  const [error, setError] = useState()
  const [busy, setBusy] = useState(false)
  const run = () => { setBusy(true); setError(undefined); impactOf(urn).then(setData, setError).finally(() => setBusy(false)) }
  const exportCsv = () => download(`impact-${name.replace(/[^A-Za-z0-9_.-]+/g, '_')}.csv`,
    toCsv([['distance', 'name', 'type', 'platform', 'urn'], ...data.rows.map((r) => [r.distance, r.name, typeLabel(r.type), r.platform, r.urn])]))
  return html`
    <section class="panel impact" aria-labelledby="impact-title">
      <h2 id="impact-title">Impact analysis</h2>
      <p class="muted">Everything downstream of ${name} (up to ${MAX_HOPS} hops), nearest first: what a change to it may affect.</p>
      <div class="actions">
        <button type="button" class="secondary" onClick=${run} disabled=${busy}>${data ? 'Run again' : 'Run impact analysis'}</button>
        ${data?.rows.length ? html`<button type="button" class="secondary" onClick=${exportCsv}>Export CSV</button>` : null}
      </div>
      <${ErrorBox} error=${error} />
      ${data ? (data.rows.length === 0 ? html`<p>Nothing is downstream of ${name}.</p>` : html`
        <div class="table-wrap"><table class="records impact-table">
          <caption>${data.rows.length} downstream entit${data.rows.length === 1 ? 'y' : 'ies'}${data.truncated ? ' (the walk stopped at its limit)' : ''}</caption>
          <thead><tr><th scope="col">Distance</th><th scope="col">Entity</th><th scope="col">Type</th><th scope="col">Platform</th></tr></thead>
          <tbody>${data.rows.map((r) => html`<tr><td>${r.distance} hop${r.distance === 1 ? '' : 's'}</td><td><${UrnLink} urn=${r.urn}>${r.name}</${UrnLink}></td><td><${TypeBadge} type=${r.type} /></td><td>${r.platform}</td></tr>`)}</tbody>
        </table></div>`) : null}
    </section>`
}
