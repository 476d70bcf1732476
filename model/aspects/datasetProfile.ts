/** Timeseries: a statistical profile of a dataset (row and column counts, per-field statistics). */
import { Type } from 'typebox'
import { defineAspect } from './aspect.ts'
import { TimeseriesBase } from './timeseriesBase.ts'

export const DatasetFieldProfile = Type.Object({
  fieldPath: Type.String(),
  uniqueCount: Type.Optional(Type.Integer()),
  uniqueProportion: Type.Optional(Type.Number()),
  nullCount: Type.Optional(Type.Integer()),
  nullProportion: Type.Optional(Type.Number()),
  min: Type.Optional(Type.String()),
  max: Type.Optional(Type.String()),
  mean: Type.Optional(Type.String()),
  median: Type.Optional(Type.String()),
  stdev: Type.Optional(Type.String()),
  quantiles: Type.Optional(Type.Array(Type.Object({ quantile: Type.String(), value: Type.String() }))),
  distinctValueFrequencies: Type.Optional(Type.Array(Type.Object({ value: Type.String(), frequency: Type.Integer() }))),
  histogram: Type.Optional(Type.Object({ boundaries: Type.Array(Type.String()), heights: Type.Array(Type.Number()) })),
  sampleValues: Type.Optional(Type.Array(Type.String())),
})

export const DatasetProfile = Type.Object({
  ...TimeseriesBase,
  rowCount: Type.Optional(Type.Integer()),
  columnCount: Type.Optional(Type.Integer()),
  fieldProfiles: Type.Optional(Type.Array(DatasetFieldProfile)),
  sizeInBytes: Type.Optional(Type.Integer()),
})

export const datasetProfile = defineAspect('datasetProfile', 'com.svc.dataset.DatasetProfile', DatasetProfile, { timeseries: true })
