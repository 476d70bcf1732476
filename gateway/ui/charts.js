// Timeseries aspects (dataset profiles, usage, operations, and any the registry adds) as line charts over time,
// drawn by uPlot; one small chart per numeric top-level field (each on its own scale). A table of the values stays one click away.
import uPlot from 'uplot'
import { useEffect, useRef, useState } from 'preact/hooks'
import * as api from './api.js'
import { Value } from './aspect.js'
import { ErrorBox, formatTime, html, humanize } from './util.js'

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777']

/** Numeric top-level fields of the points (timestampMillis excluded), in first-seen order. */
const numericFields = (points) => [...new Set(points.flatMap((p) => Object.keys(p).filter((k) => k !== 'timestampMillis' && typeof p[k] === 'number')))]

function Chart({ title, points, field, color }) {
  const box = useRef()
  useEffect(() => {
    const sorted = [...points].sort((a, b) => a.timestampMillis - b.timestampMillis)
    const data = [sorted.map((p) => p.timestampMillis / 1000), sorted.map((p) => (typeof p[field] === 'number' ? p[field] : null))]
    const el = box.current
    if (!el) return undefined
    const size = () => ({ width: Math.max(260, el.clientWidth || 480), height: 180 })
    const plot = new uPlot({
      title, ...size(),
      series: [{}, { label: humanize(field), stroke: color, fill: `${color}1a`, width: 2, points: { show: sorted.length < 60 } }],
      axes: [{}, { size: 60 }],
      scales: { x: { time: true } },
      legend: { show: true },
    }, data, el)
    const resize = new ResizeObserver(() => plot.setSize(size()))
    resize.observe(el)
    return () => { resize.disconnect(); plot.destroy() }
  }, [points, field])
  return html`<div class="chart" ref=${box} role="img" aria-label=${`${title}: ${humanize(field)} over time, ${points.length} points`}></div>`
}

export function TimeseriesSection({ urn, entityName, aspects }) {
  const [series, setSeries] = useState()
  const [error, setError] = useState()
  useEffect(() => {
    Promise.all(aspects.map((a) => api.timeseries(urn, entityName, a.name, 1000).then((points) => ({ aspect: a.name, points }))))
      .then((all) => setSeries(all.filter((s) => s.points.length > 0)), setError)
  }, [urn])
  if (error) return html`<${ErrorBox} error=${error} />`
  if (!series || series.length === 0) return null
  return html`
    <section class="panel" aria-labelledby="timeseries-title">
      <h2 id="timeseries-title">Over time</h2>
      ${series.map((s) => {
        const fields = numericFields(s.points)
        return html`<div class="timeseries" data-aspect=${s.aspect}>
          <h3>${humanize(s.aspect)}</h3>
          <div class="charts">${fields.map((f, i) => html`<${Chart} key=${f} title=${humanize(f)} points=${s.points} field=${f} color=${COLORS[i % COLORS.length]} />`)}</div>
          <details>
            <summary>${s.points.length} value${s.points.length === 1 ? '' : 's'} of ${humanize(s.aspect)} (latest ${formatTime(s.points[0].timestampMillis)})</summary>
            <${Value} value=${s.points.slice(0, 50)} />
          </details>
        </div>`
      })}
    </section>`
}
