/** Fields every timeseries aspect carries; `timestampMillis` orders and identifies a point. */
import { Type } from 'typebox'

export const TimeWindowSize = Type.Object({
  unit: Type.Enum(['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR']),
  multiple: Type.Optional(Type.Integer({ default: 1 })),
})

export const TimeseriesBase = {
  timestampMillis: Type.Integer({ minimum: 0 }),
  eventGranularity: Type.Optional(TimeWindowSize),
  partitionSpec: Type.Optional(Type.Object({
    type: Type.Optional(Type.Enum(['FULL_TABLE', 'QUERY', 'PARTITION'])),
    partition: Type.String(),
    timePartition: Type.Optional(Type.Object({ startTimeMillis: Type.Integer(), length: TimeWindowSize })),
  })),
  messageId: Type.Optional(Type.String()),
}
