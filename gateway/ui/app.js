// The catalogue UI: a hash router over the pages (home, search, browse, entity, lineage, not found), the header, and the token
// prompt shown whenever the service answers 401 (AUTH_ENABLED=true). Preact + htm, no build step.
import { render } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import * as api from './api.js'
import { SearchPage } from './search.js'
import { ErrorBox, html, setRegistryModel } from './util.js'

/** The other pages load when first opened, so the search page (the first one most people see) loads less. */
const LAZY = {
  entity: () => import('./entity.js').then((m) => m.EntityPage),
  lineage: () => import('./lineage.js').then((m) => m.LineagePage),
  browse: () => import('./browse.js').then((m) => m.BrowsePage),
  home: () => import('./home.js').then((m) => m.HomePage),
}
const loaded = {}
function Lazy({ page, ...props }) {
  const [component, setComponent] = useState(() => loaded[page])
  const [error, setError] = useState()
  useEffect(() => {
    if (!loaded[page]) LAZY[page]().then((c) => { loaded[page] = c; setComponent(() => c) }, setError)
    else setComponent(() => loaded[page])
  }, [page])
  if (error) return html`<${ErrorBox} error=${error} />`
  return component ? html`<${component} ...${props} />` : html`<p class="loading">Loading…</p>`
}

/** The current route: `#/<page>/<arg>?<params>`. */
function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/'
  const [path, query = ''] = raw.split('?')
  const [, page = '', ...rest] = path.split('/')
  return { page, arg: rest.length ? decodeURIComponent(rest.join('/')) : '', params: new URLSearchParams(query), key: raw }
}

function useRoute() {
  const [route, setRoute] = useState(parseHash)
  useEffect(() => {
    const onChange = () => setRoute(parseHash())
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return route
}

/** The token dialog (a native <dialog>: modal, focus kept inside, Escape closes it). */
function TokenDialog({ reason, onDone }) {
  const ref = useRef()
  const input = useRef()
  useEffect(() => {
    if (reason && !ref.current.open) ref.current.showModal()
    if (reason) input.current?.focus()
  }, [reason])
  const submit = (event) => {
    event.preventDefault()
    api.setToken(input.current.value.trim())
    input.current.value = ''
    ref.current.close()
    onDone(true)
  }
  return html`
    <dialog ref=${ref} class="token-dialog" aria-labelledby="token-title" onClose=${() => onDone(false)}>
      <form method="dialog" onSubmit=${submit}>
        <h2 id="token-title">Access token</h2>
        <p>This catalogue is private: it shows its entries only to people with an access token, a long secret that
          starts with <code>svc_</code>. If you have none, ask whoever runs the catalogue to make one for you.</p>
        <p>The token is kept in this browser tab until you close it, and sent only to this catalogue.</p>
        ${reason ? html`<p class="error" role="alert">${reason}</p>` : null}
        <label for="token-input">Token</label>
        <input id="token-input" ref=${input} type="password" autocomplete="off" required spellcheck="false" />
        <div class="actions">
          <button type="submit">Use this token</button>
          <button type="button" class="secondary" onClick=${() => ref.current.close()}>Cancel</button>
        </div>
      </form>
    </dialog>`
}

function NotFound({ route }) {
  return html`
    <h1>Not found</h1>
    <p>There is no page at <code>#${route.key}</code>.</p>
    <p><a href="#/">Home</a> · <a href="#/search">Search</a> · <a href="#/browse">Browse</a></p>`
}

function Header({ route, hasToken, onToken }) {
  const current = (page) => (route.page === page ? 'page' : undefined)
  return html`
    <header class="top">
      <a class="brand" href="#/">svc-catalog</a>
      <nav aria-label="Main">
        <a href="#/" aria-current=${current('')}>Home</a>
        <a href="#/search" aria-current=${current('search')}>Search</a>
        <a href="#/browse" aria-current=${current('browse')}>Browse</a>
        <a href="svc/docs">API docs</a>
      </nav>
      <button type="button" class="secondary token-button" onClick=${onToken}>${hasToken ? 'Change token' : 'Token'}</button>
      ${hasToken ? html`<button type="button" class="secondary" onClick=${() => { api.setToken(''); location.reload() }}>Forget token</button>` : null}
    </header>`
}

function App() {
  const route = useRoute()
  const [registry, setRegistry] = useState()
  const [error, setError] = useState()
  const [authReason, setAuthReason] = useState()
  const [generation, setGeneration] = useState(0)

  useEffect(() => api.onUnauthorized((_err, sentToken) => setAuthReason(sentToken
    ? 'That token was not accepted: it is unknown, revoked or expired. Check it, or ask for a new one.'
    : 'Enter your access token to go on.')), [])
  useEffect(() => {
    setError(undefined)
    api.registry().then((reg) => { setRegistryModel(reg); setRegistry(reg) }, setError)
  }, [generation])

  const tokenDone = (changed) => {
    setAuthReason(undefined)
    if (changed) { api.forgetRegistry(); setGeneration((g) => g + 1) }
  }
  let page
  if (!registry) page = error ? html`<${ErrorBox} error=${error} />` : html`<p class="loading">Loading the registry…</p>`
  else if (route.page === 'entity') page = html`<${Lazy} page="entity" key=${`${route.arg}#${generation}`} urn=${route.arg} params=${route.params} registry=${registry} />`
  else if (route.page === 'lineage') page = html`<${Lazy} page="lineage" key=${`${route.arg}#${generation}`} urn=${route.arg} params=${route.params} registry=${registry} />`
  else if (route.page === 'browse') page = html`<${Lazy} page="browse" key=${generation} type=${route.arg} params=${route.params} registry=${registry} />`
  else if (route.page === 'search') page = html`<${SearchPage} key=${generation} params=${route.params} registry=${registry} />`
  else if (route.page === '') page = html`<${Lazy} page="home" key=${generation} registry=${registry} />`
  else page = html`<${NotFound} route=${route} />`
  return html`
    <${Header} route=${route} hasToken=${!!api.getToken()} onToken=${() => setAuthReason(' ')} />
    <main id="main">${page}</main>
    <${TokenDialog} reason=${authReason?.trim() || (authReason ? 'Enter your access token.' : undefined)} onDone=${tokenDone} />`
}

const root = document.getElementById('app')
root.textContent = ''
render(html`<${App} />`, root)
