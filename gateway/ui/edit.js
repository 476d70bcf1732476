// Curation: people edit an entity's description (Markdown, with a preview), tags, glossary terms, owners (with
// their type), documentation links, and each column's description, tags and terms. Every change is a JSON-patch
// proposal through the public API (route 1, with the person's token when auth is on), so the change log, history
// and search see it like any write. Each patch carries If-Version-Match with the aspect version the page showed:
// when someone else saved in between, the service refuses it (412) and the editor says so and shows the newer value.
import { useEffect, useRef, useState } from 'preact/hooks'
import * as api from './api.js'
import { Markdown } from './markdown.js'
import { ErrorBox, UrnLink, entitySpec, formatTime, hasPage, html, humanize, isUrn, urnLabel } from './util.js'

/** JSON-pointer escaping of one key (`~` and `/`), as the patch paths address arrays by key. */
const key = (text) => String(text).replace(/~/g, '~0').replace(/\//g, '~1')

/** Where a type's description is edited: its editable aspect (as upstream's UI writes it), else its properties. */
const DESCRIPTION_TARGETS = [
  [/^editable\w*Properties$/, 'description'], [/^corpUserEditableInfo$/, 'aboutMe'], [/^corpGroupEditableInfo$/, 'description'],
  [/^tagProperties$/, 'description'], [/^glossaryTermInfo$/, 'definition'], [/^glossaryNodeInfo$/, 'definition'],
  [/^domainProperties$/, 'description'], [/^dataProductProperties$/, 'description'],
]
export function descriptionTarget(entityName) {
  const names = (entitySpec(entityName)?.aspects ?? []).map((a) => a.name)
  for (const [pattern, field] of DESCRIPTION_TARGETS) {
    const aspect = names.find((n) => pattern.test(n))
    if (aspect) return { aspect, field }
  }
  return undefined
}
export const canEdit = (entityName, aspect) => (entitySpec(entityName)?.aspects ?? []).some((a) => a.name === aspect)

/** The version of an aspect as a read reported it (0: not written yet). */
export const versionOf = (entity, aspect) => Number(entity?.aspects?.[aspect]?.systemMetadata?.version ?? 0)

/** A write's outcome for the person: a conflict (412) names who changed what, with the newer value shown. */
async function conflictOf(err, urn, aspect) {
  if (err?.status !== 412) return undefined
  const now = await api.aspectNow(urn, aspect).catch(() => undefined)
  return { aspect, now }
}

function ConflictBox({ conflict, render }) {
  if (!conflict) return null
  const { now } = conflict
  const who = now?.created ? ` by ${urnLabel(now.created.actor)} at ${formatTime(now.created.time)}` : ''
  return html`
    <div class="error conflict" role="alert">
      <strong>Not saved: someone else changed this first.</strong>
      ${' '}${humanize(conflict.aspect)} is now at version ${now?.version ?? '?'} (saved${who}); your change was made on an older version and was not applied.
      ${render ? html`<div class="newer"><span>The newer value:</span> ${render(now?.value)}</div>` : null}
      <span> Review it, then save again if your change is still needed.</span>
    </div>`
}

/** Runs a write; on a conflict shows the newer value, on another error the error. */
function useWrite(urn, aspect, onSaved) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState()
  const [conflict, setConflict] = useState()
  const run = async (operations, version) => {
    setBusy(true)
    setError(undefined)
    setConflict(undefined)
    try {
      await api.patchAspect(urn.split(':')[2], urn, aspect, operations, version)
      await onSaved()
      return true
    } catch (err) {
      const found = await conflictOf(err, urn, aspect)
      if (found) { setConflict(found); await onSaved() } else setError(err)
      return false
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, conflict, run, clear: () => { setError(undefined); setConflict(undefined) } }
}

/** The description: rendered Markdown; "Edit description" opens a text box with a preview. */
export function DescriptionEditor({ entity, fallback, onSaved }) {
  const target = descriptionTarget(entity.entityName)
  const current = target ? entity.aspects?.[target.aspect]?.value?.[target.field] : undefined
  const shown = current ?? fallback
  const [draft, setDraft] = useState()
  const [preview, setPreview] = useState(false)
  const write = useWrite(entity.urn, target?.aspect, onSaved)
  const box = useRef()
  useEffect(() => { if (draft !== undefined && !preview) box.current?.focus() }, [draft === undefined, preview])
  if (draft === undefined) {
    return html`
      <div class="description-block">
        ${shown ? html`<${Markdown} text=${shown} />` : html`<p class="muted">No description.</p>`}
        ${target ? html`<button type="button" class="secondary small" onClick=${() => { write.clear(); setDraft(shown ?? ''); setPreview(false) }}>Edit description</button>` : null}
        <${ConflictBox} conflict=${write.conflict} render=${(v) => html`<${Markdown} text=${v?.[target.field] ?? ''} />`} />
      </div>`
  }
  const save = async (event) => {
    event.preventDefault()
    const ok = await write.run([{ op: 'add', path: `/${target.field}`, value: draft }], versionOf(entity, target.aspect))
    if (ok) setDraft(undefined)
  }
  return html`
    <form class="description-editor" onSubmit=${save}>
      <div class="tabs" role="group" aria-label="Editor view">
        <button type="button" class="secondary small" aria-pressed=${!preview} onClick=${() => setPreview(false)}>Write</button>
        <button type="button" class="secondary small" aria-pressed=${preview} onClick=${() => setPreview(true)}>Preview</button>
        <span class="muted">Markdown: **bold**, _italic_, [links](https://…), lists, \`code\`</span>
      </div>
      ${preview ? html`<div class="preview" aria-label="Preview"><${Markdown} text=${draft} /></div>`
        : html`<label class="block">Description<textarea ref=${box} rows="6" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)}></textarea></label>`}
      <${ConflictBox} conflict=${write.conflict} render=${(v) => html`<${Markdown} text=${v?.[target.field] ?? ''} />`} />
      <${ErrorBox} error=${write.error} />
      <div class="actions">
        <button type="submit" disabled=${write.busy}>Save</button>
        <button type="button" class="secondary" onClick=${() => { write.clear(); setDraft(undefined) }}>Cancel</button>
      </div>
    </form>`
}

/** Suggestions from the catalogue (a search of the given types, the last word as a prefix), as urns. */
function useSuggestions(types, text) {
  const [found, setFound] = useState([])
  useEffect(() => {
    const query = text.trim()
    if (!query || query.includes(':')) { setFound([]); return undefined }
    let live = true
    const timer = setTimeout(async () => {
      const lists = await Promise.all(types.map((t) => api.search(t, query, 0, 6).then((v) => v.entities, () => [])))
      if (live) setFound([...new Set(lists.flat())].slice(0, 8))
    }, 120)
    return () => { live = false; clearTimeout(timer) }
  }, [text])
  return found
}

/**
 * A box that adds one urn: typed text (Enter adds it: a name becomes `<prefix><type>:<name>`) or a suggestion
 * picked with the arrow keys or the mouse.
 */
let boxes = 0
function AddBox({ label, types, prefix, onAdd, onClose, children }) {
  const [text, setText] = useState('')
  const [active, setActive] = useState(-1)
  const suggestions = useSuggestions(types, text)
  const input = useRef()
  useEffect(() => input.current?.focus(), [])
  const [id] = useState(() => `add-${label.toLowerCase()}-${++boxes}`) // unique: an entity's and a column's boxes can be open at once
  const add = (urn) => { if (urn) { onAdd(urn); setText(''); setActive(-1) } }
  const typed = () => {
    const value = text.trim()
    if (!value) return undefined
    return isUrn(value) ? value : `${prefix}${types[0]}:${value}`
  }
  const onKeyDown = (e) => {
    if (e.key === 'ArrowDown' && suggestions.length) { e.preventDefault(); setActive((a) => (a + 1) % suggestions.length) }
    else if (e.key === 'ArrowUp' && suggestions.length) { e.preventDefault(); setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1)) }
    else if (e.key === 'Escape') onClose()
    else if (e.key === 'Enter') { e.preventDefault(); add(active >= 0 ? suggestions[active] : typed()) }
  }
  return html`
    <div class="add-box">
      <label for=${id}>${label}</label>
      <div class="combo">
        <input id=${id} ref=${input} value=${text} autocomplete="off" spellcheck="false" role="combobox" aria-autocomplete="list"
          aria-expanded=${suggestions.length > 0} aria-controls=${`${id}-list`} aria-activedescendant=${active >= 0 ? `${id}-${active}` : undefined}
          onInput=${(e) => { setText(e.currentTarget.value); setActive(-1) }} onKeyDown=${onKeyDown} />
        <ul id=${`${id}-list`} role="listbox" class="suggestions" aria-label=${`${label} suggestions`} hidden=${suggestions.length === 0}>
          ${suggestions.map((urn, i) => html`<li id=${`${id}-${i}`} role="option" aria-selected=${i === active} class=${i === active ? 'active' : ''}
            onMouseDown=${(e) => { e.preventDefault(); add(urn) }}>${urnLabel(urn)} <span class="muted">${urn}</span></li>`)}
        </ul>
      </div>
      ${children}
      <button type="button" class="secondary small" onClick=${onClose}>Done</button>
    </div>`
}

const chipLabel = (urn, names) => names?.[urn] ?? urnLabel(urn)

/** The value under a patch base (`''`, or `/editableSchemaFieldInfo/<field>/globalTags`) of an aspect value. */
function under(value, base) {
  if (!base) return value
  const [, , field, part] = base.split('/')
  const path = field.replace(/~1/g, '/').replace(/~0/g, '~')
  return (value?.editableSchemaFieldInfo ?? []).find((e) => e.fieldPath === path)?.[part]
}

/**
 * Tags, terms or owners of an entity (or of one column): chips with a remove button each, and an "Add …" button
 * opening an AddBox. `ops` builds the patch operations; `items` are {urn, note?}.
 */
function UrnListEditor({ noun, kind, items, types, prefix, version, urn, aspect, addOps, removeOps, onSaved, extra, names, render }) {
  const [adding, setAdding] = useState(false)
  const write = useWrite(urn, aspect, onSaved)
  const label = humanize(noun)
  return html`
    <div class=${`list-editor ${kind}`}>
      <ul class="chips" aria-label=${`${label}s`}>
        ${items.map((item) => html`<li class=${`chip ${kind}`}>
          ${hasPage(item.urn) ? html`<${UrnLink} urn=${item.urn}>${chipLabel(item.urn, names)}</${UrnLink}>` : chipLabel(item.urn, names)}
          ${item.note ? html` <span class="muted">${item.note}</span>` : null}
          <button type="button" class="remove" aria-label=${`Remove ${noun} ${chipLabel(item.urn, names)}`} disabled=${write.busy}
            onClick=${() => write.run(removeOps(item), version)}>×</button></li>`)}
      </ul>
      ${adding ? html`<${AddBox} label=${label} types=${types} prefix=${prefix} onClose=${() => setAdding(false)}
          onAdd=${(u) => write.run(addOps(u), version)}>${extra}</${AddBox}>`
        : html`<button type="button" class="secondary small" onClick=${() => { write.clear(); setAdding(true) }}>Add ${noun}</button>`}
      <${ConflictBox} conflict=${write.conflict} render=${render} />
      <${ErrorBox} error=${write.error} />
    </div>`
}

const OWNER_TYPES = ['TECHNICAL_OWNER', 'BUSINESS_OWNER', 'DATA_STEWARD', 'DATAOWNER', 'PRODUCER', 'DEVELOPER', 'CONSUMER', 'STAKEHOLDER', 'DELEGATE', 'NONE']
const urnsText = (list) => (list.length ? list.map(urnLabel).join(', ') : 'none')

export function TagsEditor({ entity, prefix, onSaved, base = '', value, version, aspect = 'globalTags' }) {
  const tags = (value ?? entity.aspects?.globalTags?.value)?.tags ?? []
  return html`<${UrnListEditor} noun="tag" kind="tag" items=${tags.map((t) => ({ urn: t.tag }))} types=${['tag']} prefix=${prefix}
    urn=${entity.urn} aspect=${aspect} version=${version ?? versionOf(entity, aspect)} onSaved=${onSaved}
    addOps=${(u) => [{ op: 'add', path: `${base}/tags/${key(u)}`, value: { tag: u } }]}
    removeOps=${(item) => [{ op: 'remove', path: `${base}/tags/${key(item.urn)}` }]}
    render=${(v) => urnsText((under(v, base)?.tags ?? []).map((t) => t.tag))} />`
}

export function TermsEditor({ entity, prefix, onSaved, base = '', value, version, aspect = 'glossaryTerms' }) {
  const terms = (value ?? entity.aspects?.glossaryTerms?.value)?.terms ?? []
  return html`<${UrnListEditor} noun="term" kind="term" items=${terms.map((t) => ({ urn: t.urn }))} types=${['glossaryTerm']} prefix=${prefix}
    urn=${entity.urn} aspect=${aspect} version=${version ?? versionOf(entity, aspect)} onSaved=${onSaved}
    addOps=${(u) => [{ op: 'add', path: `${base}/terms/${key(u)}`, value: { urn: u } }]}
    removeOps=${(item) => [{ op: 'remove', path: `${base}/terms/${key(item.urn)}` }]}
    render=${(v) => urnsText((under(v, base)?.terms ?? []).map((t) => t.urn))} />`
}

export function OwnersEditor({ entity, prefix, onSaved, names }) {
  const [type, setType] = useState('TECHNICAL_OWNER')
  const owners = entity.aspects?.ownership?.value?.owners ?? []
  const typeSelect = html`<label>Owner type <select value=${type} onChange=${(e) => setType(e.currentTarget.value)}>
    ${OWNER_TYPES.map((t) => html`<option value=${t}>${humanize(t.toLowerCase())}</option>`)}</select></label>`
  return html`<${UrnListEditor} noun="owner" kind="owner" names=${names} items=${owners.map((o) => ({ urn: o.owner, type: o.type, note: o.type ? humanize(o.type.toLowerCase()) : '' }))}
    types=${['corpuser', 'corpGroup']} prefix=${prefix} extra=${typeSelect}
    urn=${entity.urn} aspect="ownership" version=${versionOf(entity, 'ownership')} onSaved=${onSaved}
    addOps=${(u) => [{ op: 'add', path: `/owners/${key(u)}/${type}`, value: { owner: u, type } }]}
    removeOps=${(item) => [{ op: 'remove', path: item.type ? `/owners/${key(item.urn)}/${item.type}` : `/owners/${key(item.urn)}` }]}
    render=${(v) => (v?.owners ?? []).map((o) => `${urnLabel(o.owner)}${o.type ? ` (${humanize(o.type.toLowerCase())})` : ''}`).join(', ') || 'none'} />`
}

/** Documentation links (institutionalMemory): a URL and what it is. Only http(s) links are offered as links. */
export function LinksEditor({ entity, prefix, onSaved }) {
  const [adding, setAdding] = useState(false)
  const [url, setUrl] = useState('')
  const [title, setTitle] = useState('')
  const [invalid, setInvalid] = useState()
  const write = useWrite(entity.urn, 'institutionalMemory', onSaved)
  const elements = entity.aspects?.institutionalMemory?.value?.elements ?? []
  const version = versionOf(entity, 'institutionalMemory')
  const add = async (e) => {
    e.preventDefault()
    const value = url.trim()
    if (!/^(https?:\/\/|mailto:)\S+$/i.test(value)) { setInvalid('A link starts with http://, https:// or mailto:'); return }
    setInvalid(undefined)
    const element = { url: value, description: title.trim() || value, createStamp: { time: Date.now(), actor: `${prefix}corpuser:__svc_ui` } }
    if (await write.run([{ op: 'add', path: `/elements/${key(value)}`, value: element }], version)) { setUrl(''); setTitle('') }
  }
  return html`
    <div class="list-editor links">
      <ul class="docs" aria-label="Documentation links">${elements.map((d) => html`<li>
        ${/^(https?:|mailto:)/i.test(d.url) ? html`<a href=${d.url} rel="noopener noreferrer" target="_blank">${d.description || d.url}</a>` : html`<span>${d.description || d.url}</span>`}
        ${d.description && d.description !== d.url ? html` <span class="muted">${d.url}</span>` : null}
        <button type="button" class="remove" aria-label=${`Remove link ${d.description || d.url}`} disabled=${write.busy}
          onClick=${() => write.run([{ op: 'remove', path: `/elements/${key(d.url)}` }], version)}>×</button></li>`)}</ul>
      ${adding ? html`
        <form class="add-box" onSubmit=${add}>
          <label>Link <input type="url" value=${url} onInput=${(e) => setUrl(e.currentTarget.value)} placeholder="https://…" /></label>
          <label>Title of the link <input value=${title} onInput=${(e) => setTitle(e.currentTarget.value)} /></label>
          <button type="submit" disabled=${write.busy}>Save</button>
          <button type="button" class="secondary small" onClick=${() => setAdding(false)}>Cancel</button>
          ${invalid ? html`<p class="error" role="alert">${invalid}</p>` : null}
        </form>` : html`<button type="button" class="secondary small" onClick=${() => { write.clear(); setAdding(true) }}>Add link</button>`}
      <${ConflictBox} conflict=${write.conflict} render=${(v) => (v?.elements ?? []).map((d) => d.url).join(', ') || 'none'} />
      <${ErrorBox} error=${write.error} />
    </div>`
}

/** One column's edited description, tags and terms (editableSchemaMetadata, addressed by field path). */
export function ColumnEditor({ entity, field, prefix, onSaved, onClose }) {
  const aspect = 'editableSchemaMetadata'
  const version = versionOf(entity, aspect)
  const info = (entity.aspects?.[aspect]?.value?.editableSchemaFieldInfo ?? []).find((e) => e.fieldPath === field.fieldPath)
  const base = `/editableSchemaFieldInfo/${key(field.fieldPath)}`
  const [draft, setDraft] = useState(info?.description ?? field.description ?? '')
  const write = useWrite(entity.urn, aspect, onSaved)
  const save = (e) => {
    e.preventDefault()
    write.run([{ op: 'add', path: `${base}/description`, value: draft }], version)
  }
  const newer = (v) => (v?.editableSchemaFieldInfo ?? []).find((x) => x.fieldPath === field.fieldPath)
  return html`
    <div class="column-editor" role="group" aria-label=${`Edit column ${field.fieldPath}`}>
      <form onSubmit=${save}>
        <label class="block">Description<textarea rows="3" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)}></textarea></label>
        <div class="actions"><button type="submit" disabled=${write.busy}>Save</button><button type="button" class="secondary" onClick=${onClose}>Cancel</button></div>
      </form>
      <${ConflictBox} conflict=${write.conflict} render=${(v) => html`<${Markdown} text=${newer(v)?.description ?? ''} />`} />
      <${ErrorBox} error=${write.error} />
      <div class="column-lists">
        <div><span class="muted">Tags</span> <${TagsEditor} entity=${entity} prefix=${prefix} onSaved=${onSaved} aspect=${aspect} version=${version} base=${`${base}/globalTags`} value=${info?.globalTags ?? { tags: [] }} /></div>
        <div><span class="muted">Glossary terms</span> <${TermsEditor} entity=${entity} prefix=${prefix} onSaved=${onSaved} aspect=${aspect} version=${version} base=${`${base}/glossaryTerms`} value=${info?.glossaryTerms ?? { terms: [] }} /></div>
      </div>
    </div>`
}
