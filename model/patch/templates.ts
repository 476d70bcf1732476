/**
 * Upstream's patch templates: the value a PATCH starts from when the aspect does not exist yet, for every aspect
 * upstream ships a template (and a patch builder) for. As upstream's `getDefault()`s: every array the patch builders
 * address empty, every map empty, required fields at their defaults. Two differences, both on purpose: no audit
 * stamp is invented (upstream stamps `created`/`lastModified` with the system actor and the clock; a patch here is a
 * pure function of what it applies to), and an aspect upstream has no sensible default for (versionProperties) starts
 * from the schema's empty value like any aspect without a template (model/patch/empty.ts).
 *
 * A template is laid over the schema's empty value, so required fields the template does not name are there too.
 * What a template adds beyond that and the patch leaves empty (an optional `[]` or `{}`) is not kept: an empty
 * optional array reads as an absent one, and the stored value holds what the patch wrote.
 */
import { emptyValue } from './empty.ts'

/** A template, given the deployment's urn prefix (`urn:svc:`) for the urns it holds. */
type Template = (urnPrefix: string) => Record<string, unknown>

/** Templates by aspect name (upstream's AspectTemplateEngine list, for the aspects this registry models). */
export const TEMPLATES: Readonly<Record<string, Template>> = {
  // common
  globalTags: () => ({ tags: [] }),
  glossaryTerms: () => ({ terms: [] }),
  ownership: () => ({ owners: [], ownerTypes: {} }),
  institutionalMemory: () => ({ elements: [] }),
  structuredProperties: () => ({ properties: [] }),
  siblings: () => ({ siblings: [], primary: false }),
  domains: () => ({ domains: [] }),
  status: () => ({ removed: false }),
  // dataset
  datasetProperties: () => ({ customProperties: {}, tags: [] }),
  editableDatasetProperties: () => ({}),
  editableSchemaMetadata: () => ({ editableSchemaFieldInfo: [] }),
  upstreamLineage: () => ({ upstreams: [], fineGrainedLineages: [] }),
  // jobs and flows
  dataFlowInfo: () => ({ customProperties: {} }),
  dataJobInfo: () => ({ customProperties: {} }),
  dataJobInputOutput: () => ({
    inputDatasets: [], outputDatasets: [], inputDatajobs: [],
    inputDatasetEdges: [], outputDatasetEdges: [], inputDatajobEdges: [],
    inputDatasetFields: [], outputDatasetFields: [], fineGrainedLineages: [],
  }),
  dataProcessInstanceInput: () => ({ inputs: [], inputEdges: [] }),
  dataProcessInstanceOutput: () => ({ outputs: [], outputEdges: [] }),
  // charts and dashboards
  chartInfo: () => ({ title: '', description: '', lastModified: {}, inputs: [], inputEdges: [] }),
  dashboardInfo: () => ({ title: '', description: '', lastModified: {}, charts: [], datasets: [], chartEdges: [], datasetEdges: [] }),
  // data products, glossary
  dataProductProperties: () => ({ assets: [] }),
  glossaryTermInfo: () => ({ definition: '', termSource: 'INTERNAL', customProperties: {} }),
  glossaryNodeInfo: () => ({ definition: '', customProperties: {} }),
  glossaryRelatedTerms: () => ({ isRelatedTerms: [], hasRelatedTerms: [], values: [], relatedTerms: [] }),
  // editable properties of other entity types, tests
  editableContainerProperties: () => ({}),
  editableChartProperties: () => ({}),
  editableDashboardProperties: () => ({}),
  editableDataFlowProperties: () => ({}),
  editableDataJobProperties: () => ({}),
  testResults: () => ({ passing: [], failing: [] }),
  // domains, structured properties
  domainProperties: () => ({}),
  propertyDefinition: (urnPrefix) => ({ qualifiedName: '', valueType: `${urnPrefix}dataType:datahub.string`, entityTypes: [] }),
}

/** The names of the aspects with a template, sorted (the README lists them). */
export const TEMPLATED_ASPECTS: readonly string[] = Object.keys(TEMPLATES).sort()

interface Schema { properties?: Record<string, unknown> }

/**
 * The value a patch of `aspect` (schema `schema`) starts from when the aspect is absent: its template's fields the
 * schema declares, over the schema's empty value.
 */
export function templateOf(aspect: string, schema: unknown, urnPrefix = 'urn:svc:'): unknown {
  const base = emptyValue(schema) as Record<string, unknown> | undefined
  const template = TEMPLATES[aspect]
  if (!template) return base
  const declared = (schema as Schema).properties ?? {}
  const fields = Object.entries(template(urnPrefix)).filter(([name]) => name in declared)
  return { ...base, ...Object.fromEntries(fields) }
}

const isEmpty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0)

/** A patched value of an aspect that was absent, without the template's optional fields the patch left empty. */
export function withoutUnusedTemplateFields(aspect: string, schema: unknown, patched: unknown): unknown {
  const template = TEMPLATES[aspect]
  if (!template || typeof patched !== 'object' || patched === null || Array.isArray(patched)) return patched
  const required = new Set(Object.keys((emptyValue(schema) as Record<string, unknown> | undefined) ?? {}))
  const out = { ...(patched as Record<string, unknown>) }
  for (const name of Object.keys(template('urn:svc:'))) if (!required.has(name) && isEmpty(out[name])) delete out[name]
  return out
}
