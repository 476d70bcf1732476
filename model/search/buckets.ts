/**
 * A facet's buckets (value -> count) as a plain object that V8 keeps in dictionary mode. Bucket keys are data
 * (owners, tags, platforms...): added one by one to an ordinary `{}`, every new run of keys makes V8 build and
 * remember new hidden classes, about 1-2 us a key. Building and serialising 40 buckets of random owners and tags
 * took 76-80 us that way on the 2-core machine and 11 us in dictionary mode; in the live scenario (ops/bench/live.ts)
 * the native engine's one line that filled `aggregations` was 3.5% of the gateway's CPU. Such an object still has
 * Object's prototype, so it compares, spreads and serialises as any other.
 */
export type Buckets = Record<string, number>

/** An empty buckets object (dictionary mode). */
export function emptyBuckets(): Buckets {
  return Object.setPrototypeOf(Object.create(null), Object.prototype) as Buckets
}

/** Sets `value`'s count: an own property whatever the value (`__proto__` assigned would set the prototype). */
function put(buckets: Buckets, value: string, n: number): void {
  if (value === '__proto__') Object.defineProperty(buckets, value, { value: n, enumerable: true, writable: true, configurable: true })
  else buckets[value] = n
}

/** Buckets of `entries`, in their order (a value listed twice keeps its last count). */
export function bucketsOf(entries: Iterable<readonly [string, number]>): Buckets {
  const out = emptyBuckets()
  for (const [value, n] of entries) put(out, value, n)
  return out
}

/** Adds `n` to `value`'s count in `buckets`. */
export function addTo(buckets: Buckets, value: string, n: number): void {
  put(buckets, value, (Object.hasOwn(buckets, value) ? buckets[value]! : 0) + n)
}
