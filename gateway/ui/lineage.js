// Lineage as a picture: upstream and/or downstream of an entity, N hops chosen by the user, laid out as a layered
// directed graph by elkjs (Eclipse Layout Kernel), data flowing left to right. Nodes link to their pages. Levels
// with many entities are collapsed into a "+N more" node (with its count) that expands on request. A node's columns
// open inside it, with column-to-column edges from fine-grained lineage (upstreamLineage.fineGrainedLineages); one
// node at a time can be expanded by a hop each way. Impact analysis lists everything downstream (impact.js).
import { useEffect, useState } from 'preact/hooks'
import * as api from './api.js'
import { ImpactAnalysis } from './impact.js'
import { ErrorBox, entityHref, html, lineageHref, splitTuple, summarize, typeLabel, urnLabel } from './util.js'

const LEVEL_LIMIT = 12
const NODE_HEIGHT = 46
const ROW = 18
const MAX_COLUMNS = 40

/** `urn:…:schemaField:(<dataset urn>,<field path>)` -> {dataset, field}. */
export function parseFieldUrn(urn) {
  const m = /^urn:[^:]+:schemaField:(.*)$/.exec(urn ?? '')
  const parts = m ? splitTuple(m[1]) : undefined
  return parts && parts.length >= 2 ? { dataset: parts[0], field: parts.slice(1).join(',') } : undefined
}

/** Column-to-column edges (source field -> derived field) declared by the shown entities' fine-grained lineage. */
export function fieldEdges(details) {
  const edges = []
  for (const entity of Object.values(details ?? {})) {
    for (const fgl of entity?.aspects?.upstreamLineage?.value?.fineGrainedLineages ?? []) {
      for (const up of fgl.upstreams ?? []) {
        for (const down of fgl.downstreams ?? []) {
          const from = parseFieldUrn(up)
          const to = parseFieldUrn(down)
          if (from && to) edges.push({ from, to, operation: fgl.transformOperation })
        }
      }
    }
  }
  return edges
}

/** A dataset's columns: its schema's fields, then any its fine-grained lineage names that the schema lacks. */
function columnsOf(urn, details, edges) {
  const fields = (details?.[urn]?.aspects?.schemaMetadata?.value?.fields ?? []).map((f) => f.fieldPath)
  for (const e of edges) for (const end of [e.from, e.to]) if (end.dataset === urn && !fields.includes(end.field)) fields.push(end.field)
  return fields.slice(0, MAX_COLUMNS)
}
const shortField = (path) => path.replace(/\[[^\]]*\]\.?/g, '') || path

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

async function layout(shown, labels, heightOf) {
  const elk = await loadElk()
  const graph = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.edgeRouting': 'SPLINES',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70', 'elk.spacing.nodeNode': '18',
    },
    children: shown.nodes.map((n) => ({ id: n.urn, width: widthOf(labels(n).title) + 44, height: heightOf(n) })),
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
  const [columns, setColumns] = useState(new Set())
  const [grown, setGrown] = useState(new Set())
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
    return { title: s?.name ?? urnLabel(n.urn), sub: [typeLabel(d?.entityName ?? n.urn.split(':')[2] ?? ''), s?.platform].filter(Boolean).join(' · '), removed: s?.removed }
  }
  const edgesOfFields = fieldEdges(details)
  const colsOf = (u) => columnsOf(u, details, edgesOfFields)
  const heightOf = (n) => (columns.has(n.urn) ? NODE_HEIGHT + 6 + colsOf(n.urn).length * ROW : NODE_HEIGHT)
  useEffect(() => {
    if (!graph || !details) return undefined // laid out once the names are known, so nodes do not jump
    let live = true
    const shown = collapse(graph, expanded)
    layout(shown, labels, heightOf).then((result) => { if (live) setPlaced({ result, shown }) }, (err) => { if (live) setError(err) })
    return () => { live = false }
  }, [graph, details, expanded, columns])

  /** One more hop each way around one node, merged into the graph (its new neighbours one level further out). */
  const grow = async (node) => {
    try {
      const walks = await Promise.all(['UPSTREAM', 'DOWNSTREAM'].map((d) => api.lineageGraph(node.urn, d, 1)))
      const nodes = new Map(graph.nodes.map((n) => [n.urn, n]))
      const edges = new Map(graph.edges.map((e) => [`${e.source}\u0000${e.target}`, e]))
      walks.forEach((walk) => {
        const step = walk.direction === 'UPSTREAM' ? -1 : 1
        for (const n of walk.nodes) if (!nodes.has(n.urn)) nodes.set(n.urn, { urn: n.urn, level: node.level + step })
        for (const e of walk.edges) edges.set(`${e.to}\u0000${e.from}`, { source: e.to, target: e.from })
      })
      const added = [...nodes.keys()].filter((u) => !details[u])
      const more = added.length ? await api.entities(added).catch(() => ({})) : {}
      setGrown(new Set([...grown, node.urn]))
      setGraph({ ...graph, nodes: [...nodes.values()], edges: [...edges.values()] })
      setDetails({ ...details, ...more })
    } catch (err) { setError(err) }
  }
  const toggleColumns = (u) => { const next = new Set(columns); if (next.has(u)) next.delete(u); else next.add(u); setColumns(next) }
  /** Where a column's row is, in graph coordinates: on the node's right (source) or left (target) side. */
  const rowAt = (boxes, dataset, field, side) => {
    const c = boxes.get(dataset)
    if (!c) return undefined
    const x = side === 'right' ? c.x + c.width : c.x
    if (!columns.has(dataset)) return { x, y: c.y + NODE_HEIGHT / 2 }
    const i = colsOf(dataset).indexOf(field)
    return i < 0 ? undefined : { x, y: c.y + NODE_HEIGHT + 6 + i * ROW + ROW / 2 }
  }
  const fieldPaths = (boxes) => edgesOfFields.flatMap((e) => {
    if (!columns.has(e.from.dataset) && !columns.has(e.to.dataset)) return []
    const a = rowAt(boxes, e.from.dataset, e.from.field, 'right')
    const b = rowAt(boxes, e.to.dataset, e.to.field, 'left')
    if (!a || !b) return []
    const mid = (a.x + b.x) / 2
    return [{ key: `${e.from.dataset}.${e.from.field}>${e.to.dataset}.${e.to.field}`, d: `M${a.x},${a.y} C${mid},${a.y} ${mid},${b.y} ${b.x},${b.y}`, label: `${shortField(e.from.field)} → ${shortField(e.to.field)}` }]
  })

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
          ${fieldPaths(new Map(placed.result.children.map((c) => [c.id, c]))).map((p) => html`<path class="field-edge" d=${p.d} data-edge=${p.key} marker-end="url(#arrow)"><title>${p.label}</title></path>`)}
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
            const cols = colsOf(n.urn)
            const open = columns.has(n.urn)
            const button = (x, label, text, pressed, onPress) => html`<g class="node-button" transform=${`translate(${x},6)`} tabindex="0" role="button" aria-label=${label} aria-pressed=${pressed}
              onClick=${onPress} onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPress() } }}><title>${label}</title><rect width="18" height="16" rx="3" /><text x="9" y="12">${text}</text></g>`
            return html`<g class="node-group" transform=${`translate(${c.x},${c.y})`} data-node=${n.urn}>
              <a class=${`node${n.urn === urn ? ' center' : ''}${l.removed ? ' removed' : ''}${n.level < 0 ? ' upstream' : n.level > 0 ? ' downstream' : ''}`} href=${entityHref(n.urn)}
                data-urn=${n.urn} aria-label=${`${l.title} (${l.sub})${n.level ? `, ${Math.abs(n.level)} hop${Math.abs(n.level) === 1 ? '' : 's'} ${n.level < 0 ? 'upstream' : 'downstream'}` : ''}`}><title>${n.urn}</title>${box}</a>
              ${cols.length ? button(c.width - 42, `${open ? 'Hide' : 'Show'} columns of ${l.title}`, '≡', open, () => toggleColumns(n.urn)) : null}
              ${n.urn !== urn && !grown.has(n.urn) ? button(c.width - 22, `Expand ${l.title}`, '+', false, () => grow(n)) : null}
              ${open ? html`<g class="columns" aria-label=${`Columns of ${l.title}`} role="list">${cols.map((f, i) => html`<g role="listitem" data-field=${f}>
                <line x1="0" x2=${c.width} y1=${NODE_HEIGHT + 6 + i * ROW} y2=${NODE_HEIGHT + 6 + i * ROW} class="column-line" />
                <text x="10" y=${NODE_HEIGHT + 6 + i * ROW + 13} class="column">${shortField(f).length > 34 ? `${shortField(f).slice(0, 33)}…` : shortField(f)}</text></g>`)}</g>` : null}
            </g>`
          })}
        </svg>
      </div>
      ${edgesOfFields.length ? html`<p class="muted">Column lineage: ${edgesOfFields.length} column-to-column edge${edgesOfFields.length === 1 ? '' : 's'} among these entities; open a node's columns (≡) to see them.</p>` : null}
      <details class="lineage-list">
        <summary>As a list</summary>
        <ul>${[...graph.nodes].sort((a, b) => a.level - b.level).filter((n) => n.level !== 0).map((n) => html`<li>${n.level < 0 ? `${-n.level} upstream` : `${n.level} downstream`}: <a href=${entityHref(n.urn)}>${labels(n).title}</a></li>`)}</ul>
      </details>` : graph && count > 0 ? html`<p class="loading">Laying out…</p>` : !error && !graph ? html`<p class="loading">Loading lineage…</p>` : null}
    <${ImpactAnalysis} urn=${urn} name=${self?.name ?? urnLabel(urn)} />`
}
