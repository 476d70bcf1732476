/**
 * Request body schemas of the OpenAPI v3/v1 routes, in upstream's shapes: checked before a handler runs (and
 * documented); the handlers then check what a schema cannot say (aspect names, values, urns) naming the JSON path.
 */
import { Type } from 'typebox'

const AspectEntry = Type.Object({
  value: Type.Unknown({ description: 'the aspect value (PATCH: {"patch": [...], "arrayPrimaryKeys"?})' }),
  systemMetadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'If-Version-Match, If-None-Match' })),
}, { additionalProperties: true })

/** `[{"urn", "<aspectName>": {"value", "systemMetadata"?, "headers"?}}]` */
export const EntityListBody = Type.Array(Type.Object({ urn: Type.String() }, { additionalProperties: AspectEntry }))
export const ENTITY_LIST_ERROR = 'the body must be a JSON array of {"urn": ..., "<aspectName>": {"value": ...}}'

/** `[{"urn", "<aspectName>"?: {"headers"?: {"If-Version-Match": "<n>"}}}]` */
export const BatchGetBody = Type.Array(Type.Object({ urn: Type.String() }, { additionalProperties: true }))
export const BATCH_GET_ERROR = 'the body must be a JSON array of {"urn": ..., "<aspectName>"?: {"headers"?: {...}}}'

/** `{"<entityName>": [...]}` */
export const GenericBody = Type.Record(Type.String(), Type.Array(Type.Unknown()))
export const GENERIC_ERROR = 'the body must be {"<entityName>": [...], ...}'

/** One aspect: `{"value", "systemMetadata"?, "headers"?}`, or for PATCH upstream's `{"patch": [...]}` itself. */
export const AspectBody = Type.Unknown({ description: 'POST: {"value": {...}, "systemMetadata"?, "headers"?}; PATCH: {"patch": [...], "arrayPrimaryKeys"?}' })

export const ScrollBody = Type.Object({
  entities: Type.Optional(Type.Array(Type.String(), { description: 'entity types (default: all)' })),
  aspects: Type.Optional(Type.Array(Type.String(), { description: 'aspects to include (default: all)' })),
}, { additionalProperties: true })

export const LineageScrollBody = Type.Object({
  urns: Type.Optional(Type.Array(Type.String(), { description: 'anchor urns' })),
  entityUrn: Type.Optional(Type.String()),
}, { additionalProperties: true })

/** `{"<urn>": ["<aspectName>", ...]}` */
export const TraceBody = Type.Record(Type.String(), Type.Array(Type.String()))
export const TRACE_ERROR = 'the body must be {"<urn>": ["<aspectName>", ...]}'
