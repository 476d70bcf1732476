/**
 * The registry: entity types, their aspects, and everything derived from the aspects' annotations (search fields,
 * facets, autocomplete fields, relationship names). Built once at start-up from the built-in model plus an optional
 * registry file (see model/registryFile.ts); every other module asks it rather than knowing aspects by name.
 */
import { Type } from 'typebox'
import { listAnnotations, type SearchableType } from './annotations.ts'
import type { AspectSpec } from './aspects/aspect.ts'
import { BUILTIN_ASPECTS } from './aspects/index.ts'
import { BUILTIN_ENTITIES, type EntitySpec } from './entities.ts'
import { fail } from './errors.ts'
import { CANONICAL_NAMESPACE, translateJson, translateName, urnPrefixOf, type Namespace } from './namespace.ts'

/** A search field of one entity type, merged over every aspect that feeds it. */
export interface SearchField {
  name: string
  type: SearchableType
  boost: number
  queryByDefault: boolean
  autocomplete: boolean
  facet: boolean
  facetKey?: 'id'
  /** An entity may have several values of it (an aspect feeds it from a list or a map). */
  many: boolean
  /** Its values are nearly each entity's own (the `unique` annotation). */
  unique: boolean
}

/** What happens to a proposal of an aspect the registry does not know, for a known entity type (UNKNOWN_ASPECTS). */
export type UnknownAspectPolicy = 'refuse' | 'store'

/** What happens to a field a known aspect's model does not declare (UNKNOWN_FIELDS). */
export type UnknownFieldPolicy = 'keep' | 'drop' | 'refuse'

/** Options of a registry besides its model. */
export interface RegistryOptions {
  /** `refuse` (default): 400 UNKNOWN_ASPECT. `store`: stored, versioned, returned and logged, never indexed. */
  unknownAspects?: UnknownAspectPolicy
  /**
   * `keep` (default): stored and returned as sent, listed in the write result. `drop`: accepted, not stored, listed
   * (upstream's behaviour since 2025). `refuse`: 400 naming the field.
   */
  unknownFields?: UnknownFieldPolicy
  /** The deployment's names (urn scheme word, record package, protocol header); canonical `svc` by default. */
  namespace?: Namespace
}

/** A name an unknown aspect may have: upstream's aspect names are identifiers. */
const ASPECT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,99}$/

/** The schema of an aspect kept without a model: any JSON object, kept as sent, with no annotations. */
const OPAQUE_SCHEMA = Type.Object({}, { additionalProperties: true, description: 'an aspect this registry does not model, kept as sent' })

/** The model a deployment runs with. */
export class Registry {
  /** The deployment's namespace: urns, record and snapshot names are in it. */
  readonly namespace: Namespace
  /** `urn:<namespace>:`, what every urn of this deployment starts with. */
  readonly urnPrefix: string
  readonly entities: readonly EntitySpec[]
  private readonly entityByName = new Map<string, EntitySpec>()
  private readonly entityBySnapshot = new Map<string, EntitySpec>()
  private readonly aspectByName = new Map<string, AspectSpec>()
  private readonly aspectByRecord = new Map<string, AspectSpec>()
  private readonly fieldsByEntity = new Map<string, Map<string, SearchField>>()
  private readonly relationshipsOf = new Map<string, { outgoing: string[]; incoming: string[] }>()
  /** Every relationship name any aspect declares, sorted. */
  readonly relationshipNames: readonly string[]
  /**
   * Lineage relationships by the way following them outwards goes: `upstream` (DownstreamOf, Consumes: the source
   * points at what it is derived from) or `downstream` (Produces: a job points at what it writes).
   */
  readonly lineage: { readonly upstream: readonly string[]; readonly downstream: readonly string[] }
  readonly unknownAspects: UnknownAspectPolicy
  readonly unknownFields: UnknownFieldPolicy
  private readonly opaque = new Map<string, AspectSpec>()

  constructor(aspects: readonly AspectSpec[], entities: readonly EntitySpec[], options: RegistryOptions = {}) {
    this.namespace = options.namespace ?? CANONICAL_NAMESPACE
    this.urnPrefix = urnPrefixOf(this.namespace)
    this.unknownAspects = options.unknownAspects ?? 'refuse'
    this.unknownFields = options.unknownFields ?? 'keep'
    for (const aspect of aspects) {
      this.aspectByName.set(aspect.name, aspect)
      this.aspectByRecord.set(aspect.recordName, aspect)
    }
    const relationships = new Set<string>()
    for (const entity of entities) {
      for (const name of [entity.keyAspect, ...entity.aspects]) {
        if (!this.aspectByName.has(name)) throw new Error(`registry: entity ${entity.name} names unknown aspect ${name}`)
      }
      this.entityByName.set(entity.name.toLowerCase(), entity)
      this.entityBySnapshot.set(entity.snapshot, entity)
      this.fieldsByEntity.set(entity.name, this.collectFields(entity, relationships))
    }
    this.entities = entities
    this.relationshipNames = [...relationships].sort()
    this.lineage = this.collectLineage(aspects)
    for (const entity of entities) this.relationshipsOf.set(entity.name, this.collectRelationships(entity, entities))
  }

  /**
   * Relationship names an entity's edges can carry: outgoing (declared by its own aspects) and incoming (declared
   * anywhere with this entity type among their targets, or with no target types).
   */
  relationshipTypes(entity: EntitySpec): { outgoing: readonly string[]; incoming: readonly string[] } {
    return this.relationshipsOf.get(entity.name)!
  }

  private collectRelationships(entity: EntitySpec, entities: readonly EntitySpec[]): { outgoing: string[]; incoming: string[] } {
    const declared = (e: EntitySpec) => [e.keyAspect, ...e.aspects].flatMap((a) => listAnnotations(this.aspectByName.get(a)!.schema).relationships)
    const outgoing = new Set(declared(entity).map((r) => r.name))
    const incoming = new Set(entities.flatMap(declared)
      .filter((r) => !r.entityTypes || r.entityTypes.some((t) => t.toLowerCase() === entity.name.toLowerCase()))
      .map((r) => r.name))
    return { outgoing: [...outgoing].sort(), incoming: [...incoming].sort() }
  }

  private collectLineage(aspects: readonly AspectSpec[]): { upstream: string[]; downstream: string[] } {
    const way = new Map<string, 'upstream' | 'downstream'>()
    for (const aspect of aspects) {
      for (const rel of listAnnotations(aspect.schema).relationships) {
        if (!rel.lineage) continue
        const known = way.get(rel.name)
        if (known && known !== rel.lineage) throw new Error(`registry: relationship ${rel.name} is declared both ${known} and ${rel.lineage}`)
        way.set(rel.name, rel.lineage)
      }
    }
    const names = (w: string) => [...way].filter(([, v]) => v === w).map(([k]) => k).sort()
    return { upstream: names('upstream'), downstream: names('downstream') }
  }

  /** The entity type of that name (case-insensitive), or undefined. */
  findEntity(name: string): EntitySpec | undefined {
    return this.entityByName.get(name.toLowerCase())
  }

  /** The entity type of that name (case-insensitive); 400 UNKNOWN_ENTITY_TYPE otherwise. */
  entity(name: string): EntitySpec {
    const entity = this.findEntity(name)
    if (!entity) throw fail('UNKNOWN_ENTITY_TYPE', `unknown entity type "${name}"`, [{ path: 'entity', message: `known: ${this.entityNames().join(', ')}` }])
    return entity
  }

  entityNames(): string[] {
    return this.entities.map((e) => e.name)
  }

  /** The entity type whose snapshot record has that name; 400 otherwise. */
  entityOfSnapshot(recordName: string): EntitySpec {
    const entity = this.entityBySnapshot.get(recordName)
    if (!entity) {
      throw fail('UNKNOWN_ENTITY_TYPE', `unknown snapshot type "${recordName}"`,
        [{ path: 'entity.value', message: `known: ${this.entities.map((e) => e.snapshot).join(', ')}` }])
    }
    return entity
  }

  /** Any aspect by short name. */
  findAspect(name: string): AspectSpec | undefined {
    return this.aspectByName.get(name)
  }

  /** True when `entity` carries the aspect (the key aspect included). */
  hasAspect(entity: EntitySpec, name: string): boolean {
    return entity.keyAspect === name || entity.aspects.includes(name)
  }

  /**
   * Whether an aspect name outside the model is taken for this entity type (UNKNOWN_ASPECTS=store): any identifier
   * that is not a modelled aspect of another entity type carried under the wrong type.
   */
  acceptsUnknown(name: string): boolean {
    return this.unknownAspects === 'store' && ASPECT_NAME.test(name) && !this.aspectByName.has(name)
  }

  /** The spec under which an unknown aspect is kept: no annotations, any object (see `acceptsUnknown`). */
  private opaqueAspect(name: string, recordName = name): AspectSpec {
    let spec = this.opaque.get(name)
    if (!spec) this.opaque.set(name, (spec = { name, recordName, schema: OPAQUE_SCHEMA, timeseries: false }))
    return spec
  }

  /** The aspect `name` of `entity`; 400 UNKNOWN_ASPECT otherwise (or an opaque spec, see `acceptsUnknown`). */
  aspectOf(entity: EntitySpec, name: string): AspectSpec {
    const aspect = this.aspectByName.get(name)
    if (!aspect && this.acceptsUnknown(name)) return this.opaqueAspect(name)
    if (!aspect || !this.hasAspect(entity, name)) {
      throw fail('UNKNOWN_ASPECT', `entity type ${entity.name} has no aspect "${name}"`,
        [{ path: 'aspectName', message: `known: ${[entity.keyAspect, ...entity.aspects].join(', ')}` }])
    }
    return aspect
  }

  /** The aspect of `entity` whose record name is `recordName`; 400 UNKNOWN_ASPECT otherwise. */
  aspectOfRecord(entity: EntitySpec, recordName: string): AspectSpec {
    const aspect = this.aspectByRecord.get(recordName)
    if (!aspect) {
      // Upstream derives an aspect's name from its record's simple name (com.svc.common.Foo -> foo).
      const simple = recordName.slice(recordName.lastIndexOf('.') + 1)
      const name = simple.charAt(0).toLowerCase() + simple.slice(1)
      if (this.acceptsUnknown(name)) return this.opaqueAspect(name, recordName)
    }
    if (!aspect || !this.hasAspect(entity, aspect.name)) {
      throw fail('UNKNOWN_ASPECT', `${entity.snapshot} has no aspect "${recordName}"`,
        [{ path: recordName, message: `known: ${[entity.keyAspect, ...entity.aspects].map((a) => this.aspectByName.get(a)!.recordName).join(', ')}` }])
    }
    return aspect
  }

  /** The versioned (non-timeseries) aspects of an entity, key first. */
  versionedAspects(entity: EntitySpec): AspectSpec[] {
    return [entity.keyAspect, ...entity.aspects].map((n) => this.aspectByName.get(n)!).filter((a) => !a.timeseries)
  }

  /** The timeseries aspects of an entity. */
  timeseriesAspects(entity: EntitySpec): AspectSpec[] {
    return entity.aspects.map((n) => this.aspectByName.get(n)!).filter((a) => a.timeseries)
  }

  /** Search fields of an entity type by name. */
  searchFields(entity: EntitySpec): ReadonlyMap<string, SearchField> {
    return this.fieldsByEntity.get(entity.name)!
  }

  private collectFields(entity: EntitySpec, relationships: Set<string>): Map<string, SearchField> {
    const fields = new Map<string, SearchField>()
    for (const name of [entity.keyAspect, ...entity.aspects]) {
      const aspect = this.aspectByName.get(name)!
      const { searchable, relationships: rels } = listAnnotations(aspect.schema)
      for (const rel of rels) relationships.add(rel.name)
      if (aspect.timeseries) continue
      for (const s of searchable) {
        const known = fields.get(s.field)
        const queryByDefault = s.queryByDefault ?? s.type === 'TEXT'
        fields.set(s.field, {
          name: s.field,
          type: known?.type ?? s.type,
          boost: Math.max(known?.boost ?? 0, s.boost ?? 1),
          queryByDefault: (known?.queryByDefault ?? false) || queryByDefault,
          autocomplete: (known?.autocomplete ?? false) || (s.autocomplete ?? false),
          facet: (known?.facet ?? false) || (s.facet ?? false),
          facetKey: known?.facetKey ?? s.facetKey,
          many: (known?.many ?? false) || s.many,
          unique: (known?.unique ?? false) || (s.unique ?? false),
        })
      }
    }
    return fields
  }
}

/**
 * The registry of the built-in model, extended by `extra` aspects and entities (from a registry file), in
 * `options.namespace`: canonical record names, snapshot names and the names inside schemas (union members such as
 * `com.svc.schema.StringType`) are translated to it here, once.
 */
export function buildRegistry(
  extra: { aspects?: AspectSpec[]; entities?: EntitySpec[]; extend?: { entity: string; aspects: string[] }[] } = {},
  options: RegistryOptions = {},
): Registry {
  const namespace = options.namespace ?? CANONICAL_NAMESPACE
  const aspects = [...BUILTIN_ASPECTS, ...(extra.aspects ?? [])]
    .map((a) => ({ ...a, recordName: translateName(namespace, a.recordName), schema: translateJson(namespace, a.schema) }))
  const entities = [...BUILTIN_ENTITIES, ...(extra.entities ?? [])]
    .map((e) => ({ ...e, snapshot: translateName(namespace, e.snapshot), defaults: translateJson(namespace, e.defaults), aspects: [...e.aspects] }))
  const names = new Set<string>()
  for (const e of entities) {
    // A registry file adds entity types or `extend`s built-in ones; a second definition would shadow the first.
    if (names.has(e.name.toLowerCase())) throw new Error(`registry: entity type ${e.name} is defined twice (use "extend" to add aspects to it)`)
    names.add(e.name.toLowerCase())
  }
  for (const ext of extra.extend ?? []) {
    const entity = entities.find((e) => e.name.toLowerCase() === ext.entity.toLowerCase())
    if (!entity) throw new Error(`registry: extend names unknown entity ${ext.entity}`)
    entity.aspects.push(...ext.aspects.filter((a) => !entity.aspects.includes(a)))
  }
  return new Registry(aspects, entities, options)
}
