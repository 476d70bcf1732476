// Descriptions as Markdown: parsed by marked, then sanitised by DOMPurify before they reach the page. Raw HTML in
// the text is shown as text (never parsed), links are live only for http, https and mailto (anything else, such
// as `javascript:`, loses its href), and every link opens in a new tab without access to this one.
import DOMPurify from 'dompurify'
import { Marked } from 'marked'
import { html } from './util.js'

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])

const marked = new Marked({
  gfm: true,
  breaks: true,
  // Raw HTML blocks and inline tags are rendered as the text they are.
  renderer: { html: ({ text }) => escapeHtml(text) },
})

const SAFE_URL = /^(?:https?:|mailto:)/i
const purifier = DOMPurify()
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? ''
    if (!SAFE_URL.test(href.trim())) node.removeAttribute('href')
    else { node.setAttribute('target', '_blank'); node.setAttribute('rel', 'noopener noreferrer') }
  }
  if (node.tagName === 'IMG') node.remove() // no images from anywhere: the page loads nothing from outside
})
const CONFIG = {
  ALLOWED_TAGS: ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input'],
  ALLOWED_ATTR: ['href', 'title', 'align', 'type', 'checked', 'disabled', 'start'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
}

/** Sanitised HTML of a Markdown text. */
export function markdownToHtml(text) {
  return purifier.sanitize(marked.parse(String(text ?? '')), CONFIG)
}

/** A description rendered from Markdown. */
export const Markdown = ({ text, class: className = 'markdown' }) =>
  html`<div class=${className} dangerouslySetInnerHTML=${{ __html: markdownToHtml(text) }}></div>`

/** Plain text of a Markdown text (for one-line excerpts in lists). */
export function markdownExcerpt(text, length = 240) {
  const div = document.createElement('div')
  div.innerHTML = markdownToHtml(text)
  const plain = (div.textContent ?? '').replace(/\s+/g, ' ').trim()
  return plain.length > length ? `${plain.slice(0, length)}…` : plain
}
