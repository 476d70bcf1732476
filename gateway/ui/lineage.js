// Lineage as a picture: upstream and/or downstream of an entity, N hops chosen by the user, laid out as a layered
// directed graph by elkjs (Eclipse Layout Kernel), data flowing left to right. Nodes link to their pages. Levels
// with many entities are collapsed into a "+N more" node (with its count) that expands on request.
import { useEffect, useState } from 'preact/hooks'
import * as api from './api.js'
import { ErrorBox, entityHref, html, humanize, lineageHref, summarize, urnLabel } from './util.js'

const LEVEL_LIMIT = 12
const NODE_HEIGHT = 46

let elkPromise
/** elkjs's browser bundle (1.6 MB), loaded on the first lineage page only. */
function loadElk() {
  elkPromise ??= new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = 'svc/ui/vendor/elkjs/lib/elk.bundled.js'
    script.onload = () => resolve(new window.ELK())
    script.onerror = () => { elkPromise = undefined; reject(new Error('could not load the layout library')) }
    document.head.append(script)
  })
  return elkPromise
}

/** Nodes and edges of the walk(s); upstream levels get negative hops. Edges point source -> derived (data flow). */
async function fetchGraph(urn, direction, hops) {
  const directions = direction === 'BOTH' ? ['UPSTREAM', 'DOWNSTREAM'] : [direction]
  const walks = await Promise.all(directions.map((d) => api.lineageGraph(urn, d, hops)))
  const nodes = new Map([[urn, { urn, level: 0 }]])
  const edges = new Map()
  let truncated = false
  walks.forEach((walk) => {
    const sign = walk.direction === 'UPSTREAM' ? -1 : 1
    for (const n of walk.nodes) if (!nodes.has(n.urn)) nodes.set(n.urn, { urn: n.urn, level: sign * n.hops })
    for (const e of walk.edges) edges.set(`${e.to}\u0000${e.from}`, { source: e.to, target: e.from })
    truncated ||= walk.truncated
  })
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated }
}

/** Keeps at most LEVEL_LIMIT nodes per level (unless expanded); the rest become one "+N more" node per level. */
function collapse(graph, expanded) {
  const byLevel = new Map()
  for (const n of graph.nodes) byLevel.set(n.level, [...(byLevel.get(n.level) ?? []), n])
  const replaced = new Map()
  const nodes = []
  for (const [level, list] of byLevel) {
    if (level === 0 || list.length <= LEVEL_LIMIT || expanded.has(level)) { nodes.push(...list); continue }
    const sorted = [...list].sort((a, b) => a.urn.localeCompare(b.urn))
    nodes.push(...sorted.slice(0, LEVEL_LIMIT))
    const more = { urn: `more:${level}`, level, more: list.length - LEVEL_LIMIT }
    nodes.push(more)
    for (const n of sorted.slice(LEVEL_LIMIT)) replaced.set(n.urn, more.urn)
  }
  const edges = new Map()
  for (const e of graph.edges) {
    const source = replaced.get(e.source) ?? e.source
    const target = replaced.get(e.target) ?? e.target
    if (source !== target) edges.set(`${source}\u0000${target}`, { source, target })
  }
  return { nodes, edges: [...edges.values()] }
}

let measure
/** Width of a node: its title measured in the font it is drawn in (clamped, long titles are cut). */
const widthOf = (text) => {
  measure ??= document.createElement('canvas').getContext('2d')
  measure.font = `600 13px ${getComputedStyle(document.body).fontFamily}`
  return Math.min(300, Math.max(150, 24 + measure.measureText(text.length > 36 ? `${text.slice(0, 35)}…` : text).width))
}

async function layout(shown, labels) {
  const elk = await loadElk()
  const graph = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.edgeRouting': 'SPLINES',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70', 'elk.spacing.nodeNode': '18',
    },
    children: shown.nodes.map((n) => ({ id: n.urn, width: widthOf(labels(n).title), height: NODE_HEIGHT })),
    edges: shown.edges.map((e, i) => ({ id: `e${i}`, sources: [e.source], targets: [e.target] })),
  }
  return elk.layout(graph)
}

function edgePath(edge) {
  return (edge.sections ?? []).map((s) => {
    const points = [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]
    if (points.length === 4) return `M${points[0].x},${points[0].y} C${points[1].x},${points[1].y} ${points[2].x},${points[2].y} ${points[3].x},${points[3].y}`
    return `M${points.map((p) => `${p.x},${p.y}`).join(' L')}`
  }).join(' ')
}

export function LineagePage({ urn, params }) {
  const direction = ['UPSTREAM', 'DOWNSTREAM', 'BOTH'].includes(params.get('direction')) ? params.get('direction') : 'BOTH'
  const hops = Math.min(10, Math.max(1, Number(params.get('hops')) || 3))
  const [graph, setGraph] = useState()
  const [details, setDetails] = useState()
  const [expanded, setExpanded] = useState(new Set())
  const [placed, setPlaced] = useState()
  const [error, setError] = useState()
  const [fit, setFit] = useState(true)
  /** Changes one control; the others are read from the URL, which may be ahead of this render. */
  const setParams = (change) => {
    const current = new URLSearchParams(location.hash.split('?')[1] ?? '')
    location.hash = lineageHref(urn, { direction: current.get('direction') ?? direction, hops: current.get('hops') ?? hops, ...change }).slice(1)
  }

  useEffect(() => {
    let live = true // answers to an earlier direction or hop count are dropped
    setPlaced(undefined)
    setError(undefined)
    setDetails(undefined)
    fetchGraph(urn, direction, hops).then(async (g) => {
      if (!live) return
      setGraph(g)
      const found = await api.entities(g.nodes.slice(0, 500).map((n) => n.urn)).catch(() => ({}))
      if (live) setDetails(found)
    }, (err) => { if (live) setError(err) })
    return () => { live = false }
  }, [urn, direction, hops])

  const labels = (n) => {
    if (n.more) return { title: `+${n.more} more`, sub: `hop ${Math.abs(n.level)}: show all` }
    const d = details?.[n.urn]
    const s = d ? summarize(d) : undefined
    return { title: s?.name ?? urnLabel(n.urn), sub: [humanize(d?.entityName ?? n.urn.split(':')[2] ?? ''), s?.platform].filter(Boolean).join(' · '), removed: s?.removed }
  }
  useEffect(() => {
    if (!graph || !details) return undefined // laid out once the names are known, so nodes do not jump
    let live = true
    const shown = collapse(graph, expanded)
    layout(shown, labels).then((result) => { if (live) setPlaced({ result, shown }) }, (err) => { if (live) setError(err) })
    return () => { live = false }
  }, [graph, details, expanded])

  const self = details?.[urn] ? summarize(details[urn]) : undefined
  const count = graph ? graph.nodes.length - 1 : 0
  return html`
    <nav class="breadcrumbs" aria-label="Breadcrumbs"><ol><li><a href=${entityHref(urn)}>${self?.name ?? urnLabel(urn)}</a></li><li><span aria-current="page">Lineage</span></li></ol></nav>
    <h1>Lineage of ${self?.name ?? urnLabel(urn)}</h1>
    <form class="lineage-controls" onSubmit=${(e) => e.preventDefault()}>
      <fieldset>
        <legend>Direction</legend>
        ${[['UPSTREAM', 'Upstream'], ['DOWNSTREAM', 'Downstream'], ['BOTH', 'Both']].map(([value, label]) => html`
          <label class="inline"><input type="radio" name="direction" value=${value} checked=${direction === value} onChange=${() => setParams({ direction: value })} /> ${label}</label>`)}
      </fieldset>
      <label>Hops <input type="number" min="1" max="10" value=${hops}
        onInput=${(e) => { const v = Number(e.currentTarget.value); if (Number.isInteger(v) && v >= 1 && v <= 10) setParams({ hops: v }) }} /></label>
      <button type="button" class="secondary" aria-pressed=${fit} onClick=${() => setFit(!fit)}>Fit to width</button>
      ${graph ? html`<span role="status">${count} related entit${count === 1 ? 'y' : 'ies'}${graph.truncated ? ' (the walk stopped at its limit)' : ''}</span>` : null}
    </form>
    <${ErrorBox} error=${error} />
    ${graph && count === 0 ? html`<p>No ${direction === 'BOTH' ? '' : `${direction.toLowerCase()} `}lineage within ${hops} hop${hops === 1 ? '' : 's'}.</p>` : null}
    ${placed && count > 0 ? html`
      <div class="graph-wrap">
        <svg class="lineage-graph" width=${fit ? '100%' : placed.result.width + 20} height=${fit ? undefined : placed.result.height + 20}
          style=${fit ? `max-width: ${placed.result.width + 20}px; height: auto` : undefined} viewBox=${`-10 -10 ${placed.result.width + 20} ${placed.result.height + 20}`}
          role="group" aria-label="Lineage graph, data flowing left to right">
          <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" /></marker></defs>
          ${placed.result.edges.map((e) => html`<path class="edge" d=${edgePath(e)} marker-end="url(#arrow)" />`)}
          ${placed.result.children.map((c) => {
            const n = placed.shown.nodes.find((x) => x.urn === c.id)
            const l = labels(n)
            const box = html`
              <rect width=${c.width} height=${c.height} rx="6" />
              <text x="10" y="19" class="title">${l.title.length > 36 ? `${l.title.slice(0, 35)}…` : l.title}</text>
              <text x="10" y="36" class="sub">${l.sub}${l.removed ? ' · removed' : ''}</text>`
            if (n.more) {
              return html`<g class="node more" transform=${`translate(${c.x},${c.y})`} tabindex="0" role="button" aria-label=${`Show ${n.more} more at hop ${Math.abs(n.level)}`}
                onClick=${() => setExpanded(new Set([...expanded, n.level]))} onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); setExpanded(new Set([...expanded, n.level])) } }}>${box}</g>`
            }
            return html`<a class=${`node${n.urn === urn ? ' center' : ''}${l.removed ? ' removed' : ''}${n.level < 0 ? ' upstream' : n.level > 0 ? ' downstream' : ''}`} href=${entityHref(n.urn)}
              data-urn=${n.urn} aria-label=${`${l.title} (${l.sub})${n.level ? `, ${Math.abs(n.level)} hop${Math.abs(n.level) === 1 ? '' : 's'} ${n.level < 0 ? 'upstream' : 'downstream'}` : ''}`}
              transform=${`translate(${c.x},${c.y})`}><title>${n.urn}</title>${box}</a>`
          })}
        </svg>
      </div>
      <details class="lineage-list">
        <summary>As a list</summary>
        <ul>${[...graph.nodes].sort((a, b) => a.level - b.level).filter((n) => n.level !== 0).map((n) => html`<li>${n.level < 0 ? `${-n.level} upstream` : `${n.level} downstream`}: <a href=${entityHref(n.urn)}>${labels(n).title}</a></li>`)}</ul>
      </details>` : graph && count > 0 ? html`<p class="loading">Laying out…</p>` : !error && !graph ? html`<p class="loading">Loading lineage…</p>` : null}`
}
