/**
 * The registry: entity types, their aspects, and everything derived from the aspects' annotations (search fields,
 * facets, autocomplete fields, relationship names). Built once at start-up from the built-in model plus an optional
 * registry file (see model/registryFile.ts); every other module asks it rather than knowing aspects by name.
 */
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
}

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

  constructor(aspects: readonly AspectSpec[], entities: readonly EntitySpec[], namespace: Namespace = CANONICAL_NAMESPACE) {
    this.namespace = namespace
    this.urnPrefix = urnPrefixOf(namespace)
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

  /** The aspect `name` of `entity`; 400 UNKNOWN_ASPECT otherwise. */
  aspectOf(entity: EntitySpec, name: string): AspectSpec {
    const aspect = this.aspectByName.get(name)
    if (!aspect || !this.hasAspect(entity, name)) {
      throw fail('UNKNOWN_ASPECT', `entity type ${entity.name} has no aspect "${name}"`,
        [{ path: 'aspectName', message: `known: ${[entity.keyAspect, ...entity.aspects].join(', ')}` }])
    }
    return aspect
  }

  /** The aspect of `entity` whose record name is `recordName`; 400 UNKNOWN_ASPECT otherwise. */
  aspectOfRecord(entity: EntitySpec, recordName: string): AspectSpec {
    const aspect = this.aspectByRecord.get(recordName)
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
        })
      }
    }
    return fields
  }
}

/**
 * The registry of the built-in model, extended by `extra` aspects and entities (from a registry file), in
 * `namespace`: canonical record names, snapshot names and the names inside schemas (union members such as
 * `com.svc.schema.StringType`) are translated to it here, once.
 */
export function buildRegistry(extra: { aspects?: AspectSpec[]; entities?: EntitySpec[]; extend?: { entity: string; aspects: string[] }[] } = {}, namespace: Namespace = CANONICAL_NAMESPACE): Registry {
  const aspects = [...BUILTIN_ASPECTS, ...(extra.aspects ?? [])]
    .map((a) => ({ ...a, recordName: translateName(namespace, a.recordName), schema: translateJson(namespace, a.schema) }))
  const entities = [...BUILTIN_ENTITIES, ...(extra.entities ?? [])]
    .map((e) => ({ ...e, snapshot: translateName(namespace, e.snapshot), defaults: translateJson(namespace, e.defaults), aspects: [...e.aspects] }))
  for (const ext of extra.extend ?? []) {
    const entity = entities.find((e) => e.name.toLowerCase() === ext.entity.toLowerCase())
    if (!entity) throw new Error(`registry: extend names unknown entity ${ext.entity}`)
    entity.aspects.push(...ext.aspects.filter((a) => !entity.aspects.includes(a)))
  }
  return new Registry(aspects, entities, namespace)
}
