import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { listAnnotations } from '../../model/annotations.ts'
import { BUILTIN_ASPECTS } from '../../model/aspects/index.ts'
import { parseProposal } from '../../model/proposal.ts'
import { buildRegistry, type UnknownFieldPolicy } from '../../model/registry.ts'
import { unknownFields, withoutNulls } from '../../model/schemaWalk.ts'
import { problems, validateOrThrow } from '../../model/validate.ts'
import type { CatalogError } from '../../model/errors.ts'
import { pairedField } from '../../model/search/native/indexMirror.ts'

const registry = buildRegistry()
const schemaOf = (name: string) => registry.findAspect(name)!.schema

test('every spec aspect is registered with its fully qualified record name', () => {
  const names = Object.fromEntries(BUILTIN_ASPECTS.map((a) => [a.name, a.recordName]))
  assert.is(names.status, 'com.svc.common.Status')
  assert.is(names.ownership, 'com.svc.common.Ownership')
  assert.is(names.schemaMetadata, 'com.svc.schema.SchemaMetadata')
  assert.is(names.upstreamLineage, 'com.svc.dataset.UpstreamLineage')
  assert.is(names.datasetKey, 'com.svc.metadata.key.DatasetKey')
  assert.is(names.corpUserInfo, 'com.svc.identity.CorpUserInfo')
  for (const name of ['institutionalMemory', 'globalTags', 'browsePaths', 'editableSchemaMetadata', 'dataPlatformInstance',
    'chartKey', 'dashboardKey', 'corpUserKey', 'corpGroupKey', 'chartInfo', 'dashboardInfo', 'corpUserEditableInfo',
    'corpGroupInfo', 'tagProperties', 'glossaryTermInfo', 'datasetUsageStatistics', 'datasetProfile']) {
    assert.ok(names[name], `${name} registered`)
  }
  assert.ok(registry.findAspect('datasetProfile')!.timeseries)
  assert.ok(registry.findAspect('datasetUsageStatistics')!.timeseries)
  assert.not.ok(registry.findAspect('ownership')!.timeseries)
})

test('a valid ownership passes; unknown fields are found (by JSON path), never dropped', () => {
  const value = { owners: [{ owner: 'urn:svc:corpuser:fbar', type: 'DATAOWNER', extra: 1 }], lastModified: { time: 0, actor: 'urn:svc:corpuser:fbar' }, notAField: true }
  assert.equal(problems(schemaOf('ownership'), value), [])
  assert.equal(unknownFields(schemaOf('ownership'), value, 'v'), ['v/owners/0/extra', 'v/notAField'])
  assert.equal(unknownFields(schemaOf('ownership'), { owners: [], ownerTypes: { 'urn:svc:ownershipType:x': [] } }), [], 'map keys are not fields')
  assert.equal(unknownFields(schemaOf('datasetProperties'), { customProperties: { 'any/key~': 'v' }, name: 'n' }), [])
})

test('a null in an optional field reads as absent, at any depth; in a required field it stays (and is refused)', () => {
  const info = { active: true, displayName: null, email: null, title: null, customProperties: { k: 'v' } }
  assert.equal(withoutNulls(schemaOf('corpUserInfo'), info), { active: true, customProperties: { k: 'v' } })
  const owners = { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER', typeUrn: null, source: null }], lastModified: null }
  assert.equal(withoutNulls(schemaOf('ownership'), owners), { owners: [{ owner: 'urn:svc:corpuser:a', type: 'DATAOWNER' }] })
  const clean = { removed: false }
  assert.is(withoutNulls(schemaOf('status'), clean), clean, 'nothing to drop: the same value')
  const required = withoutNulls(schemaOf('corpUserInfo'), { active: null, email: null })
  assert.equal(required, { active: null })
  assert.equal(problems(schemaOf('corpUserInfo'), required, 'v').map((d) => d.path), ['v/active'])
})

test('unknown fields: kept (default), dropped or refused; listed by path whenever they are not refused', () => {
  const proposal = { entityType: 'dashboard', entityUrn: 'urn:svc:dashboard:(looker,d)', changeType: 'UPSERT', aspectName: 'dashboardInfo',
    aspect: { json: { title: 't', description: 'd', lastModified: {}, notAValidField: 'x' } } }
  const write = (policy: UnknownFieldPolicy) => {
    const unknown: string[] = []
    const item = parseProposal(buildRegistry({}, { unknownFields: policy }), proposal, 'proposal', unknown) as { aspects: { value: Record<string, unknown> }[] }
    return { value: item.aspects[0]!.value, unknown }
  }
  assert.equal(write('keep'), { value: { title: 't', description: 'd', lastModified: {}, notAValidField: 'x' }, unknown: ['proposal.aspect.value/notAValidField'] })
  assert.equal(write('drop'), { value: { title: 't', description: 'd', lastModified: {} }, unknown: ['proposal.aspect.value/notAValidField'] })
  try {
    write('refuse')
    assert.unreachable()
  } catch (err) {
    assert.is((err as CatalogError).code, 'INVALID_ASPECT')
    assert.equal((err as CatalogError).details.map((d) => d.path), ['proposal.aspect.value/notAValidField'])
  }
})

test('violations name their JSON path', () => {
  const found = problems(schemaOf('ownership'), { owners: [{ owner: 'not-a-urn', type: 'BOSS' }] }, 'v')
  assert.equal(found.map((d) => d.path), ['v/owners/0/owner', 'v/owners/0/type'])
  assert.match(found[1]!.message, /must be one of: .*DATAOWNER/)
  assert.equal(problems(schemaOf('status'), { removed: 'yes' }).map((d) => d.path), ['/removed'])
  assert.equal(problems(schemaOf('chartInfo'), { title: 't' }).map((d) => d.message), ['missing required property: description, lastModified'])
})

test('unions accept exactly one known member', () => {
  const field = (type: unknown) => ({ schemaName: 's', platform: 'urn:svc:dataPlatform:x', version: 0, hash: '', platformSchema: { 'com.svc.schema.StreamSchema': { documentSchema: '{}' } }, fields: [{ fieldPath: 'a', nativeDataType: 'string', type: { type } }] })
  assert.equal(problems(schemaOf('schemaMetadata'), field({ 'com.svc.schema.StringType': {} })), [])
  assert.is(problems(schemaOf('schemaMetadata'), field({ 'com.svc.schema.Nope': {} })).length, 1)
  assert.is(problems(schemaOf('schemaMetadata'), field({})).length, 1)
  assert.is(problems(schemaOf('schemaMetadata'), field({ 'com.svc.schema.StringType': {}, 'com.svc.schema.DateType': {} })).length, 1)
})

test('search and relationship annotations live on the aspects', () => {
  const { relationships, searchable } = listAnnotations(schemaOf('ownership'))
  assert.equal(relationships.map((r) => r.name), ['OwnedBy'])
  assert.equal(searchable.map((s) => s.field), ['owners'])
  const names = new Set(registry.relationshipNames)
  for (const rel of ['OwnedBy', 'TaggedWith', 'DownstreamOf', 'Consumes', 'Contains', 'IsPartOf', 'SchemaFieldTaggedWith', 'EditableSchemaFieldTaggedWith']) {
    assert.ok(names.has(rel), rel)
  }
})

test('a search field fed from a list or a map may have many values, one joined into a path has one', () => {
  const many = (entity: string, field: string) => registry.searchFields(registry.entity(entity)).get(field)!.many
  assert.is(many('dataset', 'description'), false)
  assert.is(many('dataset', 'qualifiedName'), false)
  assert.is(many('dataset', 'tags'), true)
  assert.is(many('dataset', 'fieldPaths'), true)
  assert.is(many('dataset', 'browsePaths'), true)
  assert.is(listAnnotations(schemaOf('browsePathsV2')).searchable.find((s) => s.field === 'browsePaths')!.many, false)
  // The native engine pairs names, free text of one value and browse paths (indexMirror.ts pairedField), nothing else.
  const paired = [...registry.searchFields(registry.entity('dataset')).values()].filter(pairedField).map((f) => f.name).sort()
  assert.equal(paired, ['browsePaths', 'description', 'displayName', 'editedDescription', 'editedName', 'name', 'qualifiedName'])
})

test('facets and autocomplete fields come from annotations', () => {
  const facets = (entity: string) => [...registry.searchFields(registry.entity(entity)).values()].filter((f) => f.facet).map((f) => f.name).sort()
  assert.equal(facets('dataset'), ['container', 'domains', 'glossaryTerms', 'origin', 'owners', 'platform', 'tags', 'typeNames'])
  assert.equal(facets('chart'), ['container', 'domains', 'glossaryTerms', 'owners', 'platform', 'tags', 'tool', 'typeNames'])
  assert.equal(facets('dataJob'), ['container', 'domains', 'glossaryTerms', 'origin', 'owners', 'platform', 'tags', 'typeNames'])
  const ac = (entity: string) => [...registry.searchFields(registry.entity(entity)).values()].filter((f) => f.autocomplete).map((f) => f.name)
  assert.ok(ac('chart').includes('title'))
  assert.ok(ac('corpuser').includes('ldap'))
})

test('a registry can be extended without code', () => {
  const extended = buildRegistry({
    aspects: [{ name: 'acmeInfo', recordName: 'com.acme.AcmeInfo', schema: { type: 'object', properties: { label: { type: 'string', searchable: { field: 'label', type: 'TEXT' } } }, required: ['label'] } as never }],
    extend: [{ entity: 'dataset', aspects: ['acmeInfo'] }],
  })
  const dataset = extended.entity('dataset')
  assert.ok(extended.hasAspect(dataset, 'acmeInfo'))
  assert.ok(extended.searchFields(dataset).has('label'))
  try {
    validateOrThrow(extended.findAspect('acmeInfo')!.schema, {}, 'INVALID_ASPECT', 'bad')
    assert.unreachable()
  } catch (err) {
    assert.is((err as CatalogError).code, 'INVALID_ASPECT')
  }
})

test('a registry file adds entity types and aspects (REGISTRY_FILE)', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs')
  const { join } = await import('node:path')
  const { tmpdir } = await import('node:os')
  const { loadRegistry } = await import('../../model/registryFile.ts')
  const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'registry.json')
  writeFileSync(file, JSON.stringify({
    aspects: [
      { name: 'podcastKey', recordName: 'com.acme.PodcastKey', schema: { type: 'object', properties: { id: { type: 'string', minLength: 1, searchable: { field: 'id', type: 'TEXT', autocomplete: true } } }, required: ['id'] } },
      { name: 'podcastInfo', recordName: 'com.acme.PodcastInfo', schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
    ],
    entities: [{ name: 'podcast', keyAspect: 'podcastKey', keyFields: ['id'], aspects: ['podcastInfo', 'ownership', 'status'] }],
  }))
  const registry = loadRegistry(file)
  const podcast = registry.entity('Podcast')
  assert.is(podcast.snapshot, 'com.svc.metadata.snapshot.PodcastSnapshot')
  assert.ok(registry.hasAspect(podcast, 'ownership'))
  writeFileSync(file, JSON.stringify({ entities: [{ name: 'bad' }] }))
  assert.throws(() => loadRegistry(file), /registry file/)
  // A built-in entity type is extended, not defined again.
  writeFileSync(file, JSON.stringify({ entities: [{ name: 'notebook', keyAspect: 'notebookKey', keyFields: ['notebookTool', 'notebookId'], aspects: [] }] }))
  assert.throws(() => loadRegistry(file), /defined twice/)
})

test.run()
