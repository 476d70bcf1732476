/**
 * Annotations that aspect schemas carry next to the fields they describe, and the one walker that finds them in a
 * value. Search documents, facets, autocomplete and relationship edges are all derived from these; no indexer
 * knows an aspect by name.
 */
import type { TSchema } from 'typebox'

/** How a field is indexed for search. */
export type SearchableType =
  | 'TEXT' // tokenized words, searched by free text
  | 'KEYWORD' // exact value (case-insensitive), filters and facets
  | 'URN' // exact urn; its id part (after the last ':' or the tuple) matches too
  | 'BOOLEAN'
  | 'COUNT' // a number: range filters

/** `searchable` annotation on a schema node. */
export interface Searchable {
  /** Name of the search field (several aspects may feed one field). */
  field: string
  type: SearchableType
  /** Weight of a free-text match in this field (default 1). */
  boost?: number
  /** Searched by free text (default: true for TEXT, false otherwise). */
  queryByDefault?: boolean
  /** Its values are autocomplete suggestions. */
  autocomplete?: boolean
  /** Counted in search facets (`searchResultMetadatas`). */
  facet?: boolean
  /** Facet buckets show the urn's id part ("foo") instead of the whole urn. */
  facetKey?: 'id'
  /**
   * Its values are nearly each entity's own (a browse path ends with the entity's name), though an entity may have
   * several: the native engine keeps no posting per value (model/search/native/indexMirror.ts pairedField).
   */
  unique?: boolean
  /**
   * The annotated value is a list of records forming one path (browsePathsV2): of each record the first present of
   * the `joinPath` fields, then the entity's own urn, joined with `/` (a `/` inside a segment is written `%2F`).
   * An empty list gives no value.
   */
  joinPath?: string[]
}

/** `relationship` annotation: the field holds urns this entity points to. */
export interface Relationship {
  name: string
  entityTypes?: string[]
  /**
   * A lineage relationship, and which way following it outwards goes: `upstream` (towards sources: DownstreamOf,
   * Consumes) or `downstream` (towards what is derived: Produces). Lineage walks follow these by default.
   */
  lineage?: 'upstream' | 'downstream'
}

/**
 * `fieldEdges` annotation on a record: edges between other entities than the one that carries the aspect
 * (fine-grained lineage: every urn of `from` points to every urn of `to` with relationship `name`).
 */
export interface FieldEdges {
  name: string
  from: string
  to: string
  lineage: 'upstream' | 'downstream'
}

/** A schema node as the walker sees it. */
interface Node {
  type?: string | string[]
  properties?: Record<string, TSchema>
  patternProperties?: Record<string, TSchema>
  items?: TSchema
  searchable?: Searchable
  relationship?: Relationship
  fieldEdges?: FieldEdges
}

/** What the walker reports of an annotated node. */
export interface Annotated {
  searchable?: Searchable
  relationship?: Relationship
  fieldEdges?: FieldEdges
}

/** Calls `visit` for every annotated node of `schema` with the value found there (arrays are walked item by item). */
export function walkAnnotated(
  schema: TSchema,
  value: unknown,
  visit: (node: Annotated, value: unknown) => void,
): void {
  if (value === undefined || value === null) return
  const node = schema as Node
  if (node.searchable || node.relationship || node.fieldEdges) visit(node, value)
  if (Array.isArray(value)) {
    if (node.items) for (const item of value) walkAnnotated(node.items, item, visit)
    return
  }
  if (typeof value !== 'object') return
  const record = value as Record<string, unknown>
  if (node.properties) {
    for (const [key, child] of Object.entries(node.properties)) walkAnnotated(child, record[key], visit)
  }
  if (node.patternProperties) {
    const [child] = Object.values(node.patternProperties)
    if (child) for (const key of Object.keys(record)) walkAnnotated(child, record[key], visit)
  }
}

/** A searchable annotation as listed: `many` when an aspect may give it several values (in or of a list or a map). */
export type ListedSearchable = Searchable & { many: boolean }

/** Every annotation of a schema, with no value: used to list an entity's searchable fields and relationships. */
export function listAnnotations(schema: TSchema): { searchable: ListedSearchable[]; relationships: Relationship[] } {
  const searchable: ListedSearchable[] = []
  const relationships: Relationship[] = []
  const visit = (node: Node, inList: boolean): void => {
    // A list joined into one path (joinPath) is one value.
    const many = inList || (node.items !== undefined && node.searchable?.joinPath === undefined) || node.patternProperties !== undefined
    if (node.searchable) searchable.push({ ...node.searchable, many })
    if (node.relationship) relationships.push(node.relationship)
    if (node.fieldEdges) relationships.push({ name: node.fieldEdges.name, entityTypes: ['schemaField'], lineage: node.fieldEdges.lineage })
    if (node.items) visit(node.items as Node, true)
    for (const child of Object.values(node.properties ?? {})) visit(child as Node, inList)
    for (const child of Object.values(node.patternProperties ?? {})) visit(child as Node, true)
  }
  visit(schema as Node, false)
  return { searchable, relationships }
}
