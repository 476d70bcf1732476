/**
 * A deployment's own entity types and aspects, from a JSON registry file (REGISTRY_FILE): aspects are JSON Schemas
 * (with the same `searchable` / `relationship` annotations as the built-in ones), entities name their key aspect,
 * key fields and aspects, and `extend` adds aspects to existing entity types. No code changes needed.
 *
 *   { "aspects":  [{ "name": "...", "recordName": "com.acme.Foo", "schema": {...}, "timeseries": false }],
 *     "entities": [{ "name": "...", "keyAspect": "...", "keyFields": ["id"], "aspects": ["..."], "snapshot": "..." }],
 *     "extend":   [{ "entity": "dataset", "aspects": ["..."] }] }
 */
import { readFileSync } from 'node:fs'
import { Type, type TSchema } from 'typebox'
import type { AspectSpec } from './aspects/aspect.ts'
import type { EntitySpec } from './entities.ts'
import type { Config } from './config.ts'
import { buildRegistry, type Registry, type RegistryOptions } from './registry.ts'
import { problems } from './validate.ts'

const RegistryFile = Type.Object({
  aspects: Type.Optional(Type.Array(Type.Object({
    name: Type.String({ minLength: 1 }),
    recordName: Type.String({ minLength: 1 }),
    schema: Type.Object({}),
    timeseries: Type.Optional(Type.Boolean()),
  }))),
  entities: Type.Optional(Type.Array(Type.Object({
    name: Type.String({ minLength: 1, pattern: '^[A-Za-z][A-Za-z0-9_]*$' }),
    keyAspect: Type.String({ minLength: 1 }),
    keyFields: Type.Array(Type.String(), { minItems: 1 }),
    aspects: Type.Array(Type.String()),
    snapshot: Type.Optional(Type.String()),
    defaults: Type.Optional(Type.Array(Type.Object({ aspect: Type.String(), template: Type.Unknown(), lowercase: Type.Optional(Type.Boolean()) }))),
  }))),
  extend: Type.Optional(Type.Array(Type.Object({ entity: Type.String(), aspects: Type.Array(Type.String()) }))),
})

/**
 * The built-in registry in `options.namespace`, extended by the file at `path` when one is given (its names may be
 * written canonically, `com.svc.` / `urn:svc:`, or in the namespace). Throws on a malformed file.
 */
export function loadRegistry(path: string, options: RegistryOptions = {}): Registry {
  if (!path) return buildRegistry({}, options)
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'))
  const found = problems(RegistryFile, raw)
  if (found.length > 0) throw new Error(`registry file ${path}: ${found.map((d) => `${d.path} ${d.message}`).join('; ')}`)
  const file = raw as {
    aspects?: { name: string; recordName: string; schema: object; timeseries?: boolean }[]
    entities?: (Omit<EntitySpec, 'snapshot'> & { snapshot?: string })[]
    extend?: { entity: string; aspects: string[] }[]
  }
  const aspects: AspectSpec[] = (file.aspects ?? []).map((a) => ({
    name: a.name, recordName: a.recordName, schema: a.schema as TSchema, timeseries: a.timeseries ?? false,
  }))
  const entities: EntitySpec[] = (file.entities ?? []).map((e) => ({
    ...e, snapshot: e.snapshot ?? `com.svc.metadata.snapshot.${e.name[0]!.toUpperCase()}${e.name.slice(1)}Snapshot`,
  }))
  return buildRegistry({ aspects, entities, extend: file.extend }, options)
}

/** The registry a deployment runs with: its registry file, namespace and unknown-aspect and unknown-field policies. */
export function registryOf(config: Pick<Config, 'registryFile' | 'namespace' | 'unknownAspects' | 'unknownFields'>): Registry {
  return loadRegistry(config.registryFile, { namespace: config.namespace, unknownAspects: config.unknownAspects, unknownFields: config.unknownFields })
}
