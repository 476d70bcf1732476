/**
 * Route 12: `GET /svc/docs`, interactive documentation (Swagger UI) served entirely by the service, offline: the
 * page, the Swagger UI files from the `swagger-ui-dist` package (read once, kept in memory) and
 * `GET /svc/openapi.json`, the OpenAPI document generated from the API's own routes.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CANONICAL_NAMESPACE, translateJson } from '../../model/namespace.ts'
import type { GatewayDeps } from '../deps.ts'
import { openApiDocument } from '../docs/openapi.ts'
import type { RouteSpec } from '../http/route.ts'

const ASSETS_PATH = '/svc/docs/assets'
const ASSET_TYPES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
}

let assets: Map<string, Buffer> | undefined
/** The Swagger UI files, read from the installed package on first use. */
function swaggerAssets(): Map<string, Buffer> {
  assets ??= new Map(Object.keys(ASSET_TYPES).map((name) => [name, readFileSync(fileURLToPath(import.meta.resolve(`swagger-ui-dist/${name}`)))]))
  return assets
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>svc-catalog API</title>
  <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS_PATH}/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/svc/openapi.json',
      dom_id: '#swagger-ui',
      validatorUrl: null,
      tryItOutEnabled: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    })
  </script>
</body>
</html>
`

/** The documentation routes for `apiRoutes` (the document is built once, at start-up). */
export function docsRoutes(deps: GatewayDeps, apiRoutes: RouteSpec[]): RouteSpec[] {
  // Examples and schemas are written in the canonical names; the document speaks the deployment's namespace.
  const ns = deps.model?.registry.namespace ?? CANONICAL_NAMESPACE
  const document = JSON.stringify(translateJson(ns, openApiDocument(apiRoutes, {
    title: 'svc-catalog',
    version: '0.1.0',
    description: 'Metadata catalog: entities described by versioned aspects. This document is the API reference; the README explains the ' +
      'decisions behind it. Errors share one body shape: {status, code, message, details}. '
      + `Urns are urn:${ns.urn}:..., record names ${ns.record}.*; clients send ${ns.protocolHeader}: 2.0.0.`,
  }, { authEnabled: deps.model?.config?.authEnabled ?? false })))
  const files = swaggerAssets()
  const docs: RouteSpec[] = [
    {
      method: 'GET', path: '/svc/openapi.json', scope: 'public', summary: 'The OpenAPI 3.1 document of the API',
      handler: async function serveOpenApi() { return { body: undefined, raw: document } },
    },
    {
      method: 'GET', path: '/svc/docs', scope: 'public', summary: 'Interactive documentation (Swagger UI)',
      handler: async function serveDocsPage() { return { body: undefined, raw: PAGE, contentType: 'text/html; charset=utf-8' } },
    },
  ]
  for (const [name, content] of files) {
    docs.push({
      method: 'GET', path: `${ASSETS_PATH}/${name}`, scope: 'public', summary: `Swagger UI file ${name}`,
      handler: async function serveDocsAsset() { return { body: undefined, raw: content, contentType: ASSET_TYPES[name], headers: { 'cache-control': 'public, max-age=86400' } } },
    })
  }
  return docs
}
