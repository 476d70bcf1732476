/** A URL that renders the asset inside an iframe. */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'

export const Embed = Type.Object({
  renderUrl: Type.Optional(Type.String()),
})

export const embed = defineAspect('embed', 'com.svc.common.Embed', Embed)
