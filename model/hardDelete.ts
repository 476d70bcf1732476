/** Which write items are hard deletes: pure, shared by the gateway's scope check and the reference cleanup. */
import type { WriteItem } from './jobs.ts'
import type { Registry } from './registry.ts'

/** Whether an item asks to remove its whole entity (an entity delete, or a delete of the key aspect). */
export function removesEntity(registry: Registry, item: WriteItem): boolean {
  if (item.op === 'deleteEntity') return true
  if (item.op !== 'delete') return false
  const entity = registry.entities.find((e) => e.name === item.entityType)
  return entity !== undefined && entity.keyAspect === item.aspect
}
