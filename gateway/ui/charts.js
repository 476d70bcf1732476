// Timeseries aspects (dataset profiles, usage, operations, and any the registry adds) as line charts over time,
// drawn by uPlot; one small chart per numeric top-level field (each on its own scale). A table of the values stays one click away.
import uPlot from 'uplot'
import { useEffect, useRef, useState } from 'preact/hooks'
import * as api from './api.js'
import { Value } from './aspect.js'
import { ErrorBox, formatTime, html, humanize } from './util.js'

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777']

/** A field holding a moment (epoch millis), not a quantity: shown as a date, never plotted. */
const isTimeField = (points, field) => /(time|millis|updated|At$|date)/i.test(field) && points.every((p) => typeof p[field] !== 'number' || p[field] > 1e11)

/** Numeric top-level fields of the points (timestampMillis and other moments excluded), in first-seen order. */
const numericFields = (points) => [...new Set(points.flatMap((p) => Object.keys(p).filter((k) => k !== 'timestampMillis' && typeof p[k] === 'number')))]
  .filter((f) => !isTimeField(points, f))
/** The moment fields, with their latest value (shown as dates beside the charts). */
const timeFields = (points) => [...new Set(points.flatMap((p) => Object.keys(p).filter((k) => k !== 'timestampMillis' && typeof p[k] === 'number')))]
  .filter((f) => isTimeField(points, f)).map((f) => [f, Math.max(...points.map((p) => p[f] ?? 0))])

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 })
/** Axis labels short enough for the axis (1.2M, 34K, 0.85). */
export const axisLabel = (value) => (value == null ? '' : Math.abs(value) >= 1000 ? compact.format(value) : String(Number(value.toFixed(2))))
const DAY = 86400

/** The x range: the points' span with a margin, at least a day either side of a single point (not years of axis). */
export function timeRange(min, max) {
  if (min == null || max == null) return [min, max]
  if (max - min < DAY) return [min - DAY, max + DAY]
  const pad = (max - min) * 0.04
  return [min - pad, max + pad]
}

function Chart({ title, points, field, color }) {
  const box = useRef()
  useEffect(() => {
    const sorted = [...points].sort((a, b) => a.timestampMillis - b.timestampMillis)
    const data = [sorted.map((p) => p.timestampMillis / 1000), sorted.map((p) => (typeof p[field] === 'number' ? p[field] : null))]
    const el = box.current
    if (!el) return undefined
    const size = () => ({ width: Math.max(260, el.clientWidth || 480), height: 180 })
    const last = data[1][data[1].length - 1]
    const plot = new uPlot({
      title: `${title}${typeof last === 'number' ? ` (latest ${axisLabel(last)})` : ''}`, ...size(),
      series: [{ label: 'Date' }, { label: humanize(field), stroke: color, fill: `${color}1a`, width: 2, points: { show: sorted.length < 60, size: 7 } }],
      axes: [{}, {
        values: (_u, splits) => splits.map(axisLabel),
        // as wide as the widest label (in px of the axis font), so large values are never cut off
        size: (_u, values) => Math.max(40, 16 + 7.5 * Math.max(0, ...(values ?? []).map((v) => String(v).length))),
      }],
      // the data's own span (uPlot widens a single point's to 1000 days when the unit is seconds)
      scales: { x: { time: true, range: () => timeRange(data[0][0], data[0][data[0].length - 1]) } },
      legend: { show: false },
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
          ${timeFields(s.points).length ? html`<dl class="record">${timeFields(s.points).map(([f, t]) => html`<div><dt>${humanize(f)}</dt><dd><time datetime=${new Date(t).toISOString()}>${formatTime(t)}</time></dd></div>`)}</dl>` : null}
          <div class="charts">${fields.map((f, i) => html`<${Chart} key=${f} title=${humanize(f)} points=${s.points} field=${f} color=${COLORS[i % COLORS.length]} />`)}</div>
          <details>
            <summary>${s.points.length} value${s.points.length === 1 ? '' : 's'} of ${humanize(s.aspect)} (latest ${formatTime(s.points[0].timestampMillis)})</summary>
            <${Value} value=${s.points.slice(0, 50)} />
          </details>
        </div>`
      })}
    </section>`
}
