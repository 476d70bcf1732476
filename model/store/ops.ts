/**
 * Redis mutations as data. Pure planners (model/store/plan*.ts, the search engines' document ops) return lists of
 * ops; the apply script (scripts/apply.lua) executes a list atomically. Keeping them data makes every planner
 * testable without Redis, and lets the encoder declare every key an apply touches in KEYS (a cluster routes the
 * script by them, and they must share one slot).
 */
import { Packr } from 'msgpackr'
import { hashTagOf } from './shards.ts'

/** `k` in a key mask. */
const K = 107

/** `[command, ...args]`: a whitelisted Redis write command, a link op (LINK, UNLINK, ZLINK, ZUNLINK, KLINK, KUNLINK) or a native index op (DOC, UNDOC, POST, TALLY, LEXLOG, PAIRLOG, WORDLOG, IDLINK) or a lexicon count (VCOUNT): see apply.lua. */
export type Op = string[]

/** Which arguments of each command are keys (positions into the op's arguments). */
function keyPositions(cmd: string, argc: number): number[] {
  switch (cmd) {
    case 'DEL': return Array.from({ length: argc }, (_, i) => i)
    case 'LINK': case 'UNLINK': case 'KLINK': case 'KUNLINK': return argc > 4 ? [0, 2, 4] : [0, 2]
    case 'ZLINK': return argc > 5 ? [0, 3, 5] : [0, 3]
    case 'ZUNLINK': return argc > 4 ? [0, 2, 4] : [0, 2]
    case 'DOC': return [0, 1, 2, 3, 6, 7]
    case 'UNDOC': return [0, 1, 2, 3, 5, 6]
    case 'POST': return [0, 2, 3]
    case 'TALLY': return [0, 1]
    case 'LEXLOG': return [0, 1]
    case 'PAIRLOG': return [0, 1, 2]
    case 'WORDLOG': return [0, 1, 2, 3]
    case 'VCOUNT': return [0, 1]
    default: return [0]
  }
}

/**
 * The key mask of a command with `argc` arguments: `k` where the argument is a key, `v` for a value. Masks are few
 * (a command and an argument count each), so they are made once, found by the command then the count (no key
 * string made per op): an apply encodes hundreds of ops.
 */
const masks = new Map<string, string[]>()
function maskOf(cmd: string, argc: number): string {
  let byCount = masks.get(cmd)
  if (!byCount) masks.set(cmd, (byCount = []))
  let mask = byCount[argc]
  if (mask === undefined) {
    const positions = new Set(keyPositions(cmd, argc))
    mask = byCount[argc] = Array.from({ length: argc }, (_, i) => (positions.has(i) ? 'k' : 'v')).join('')
  }
  return mask
}

/** Commands whose arguments after the key are a list of independent members (or pairs): two on one key are one. */
const MERGEABLE = new Set(['HSET', 'HDEL', 'ZADD', 'ZREM', 'SADD', 'SREM'])

/**
 * The same ops with those of one mergeable command on one key joined into the first of them, where no op between
 * them names that key (so moving the later one up changes nothing any op reads): an entity's aspects (one HSET of
 * several fields), its outgoing edges of one type (one ZADD of several members). An op followed by LEXLOG stays
 * alone, as LEXLOG reads whether that op added or removed its one member. Fewer commands for the script to run: each costs
 * Redis a few microseconds beyond its own work, and a new dataset's apply had ~77. The ops given are not changed
 * (an op is copied before another joins it).
 */
export function coalesceOps(ops: readonly Op[]): Op[] {
  const out: Op[] = []
  /** Key -> the op in `out` (at `at`) that a later op of the same command on it may join. */
  const open = new Map<string, { op: Op; at: number; copied: boolean }>()
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!
    const cmd = op[0]!
    const joinable = MERGEABLE.has(cmd) && op.length > 2 && ops[i + 1]?.[0] !== 'LEXLOG'
    const target = joinable ? open.get(op[1]!) : undefined
    if (target && target.op[0] === cmd) {
      if (!target.copied) {
        target.op = out[target.at] = [...target.op]
        target.copied = true
      }
      for (let j = 2; j < op.length; j++) target.op.push(op[j]!)
      continue
    }
    if (open.size > 0) {
      const mask = maskOf(cmd, op.length - 1)
      for (let j = 0; j < mask.length; j++) if (mask.charCodeAt(j) === K) open.delete(op[j + 1]!)
    }
    out.push(op)
    if (joinable) open.set(op[1]!, { op, at: out.length - 1, copied: false })
  }
  return out
}

/** An apply's KEYS and its ops as one MessagePack array (the script's last ARGV). */
export interface EncodedOps {
  keys: string[]
  ops: Buffer
}

/**
 * Encodes ops for the apply script, joined first (coalesceOps). `first` keys open KEYS (the script's own, e.g. the
 * entity's meta hash); every key an op names follows, once each. The ops are one MessagePack array of strings: op
 * count, then per op: command, argument count, a mask with `k` for each argument that is a key (given as its index
 * into KEYS) and `v` for a plain value, then the arguments. One string, not an ARGV entry per argument: a new
 * dataset's apply has ~550, and the client's work per argument (its length, its RESP header, the concatenation)
 * cost the worker ~130 us of CPU an apply (30% of sending it) (stop 55: in `npm run bench:writes` the batch's worker
 * CPU per dataset fell by 30% and its rate rose by ~20%). MessagePack rather than JSON: the script's
 * `cmsgpack.unpack` copies each string's bytes where `cjson.decode` reads them for escapes (the aspects' own JSON is
 * most of an apply, all quotes). With the plain commands' fast path in apply.lua, `npm run bench:apply` put Redis's
 * time per apply at 342 -> 300 us for a new dataset (unpacking 60 -> 47 us) and 91.5 -> 83-86 us for a
 * datasetProperties change; msgpackr packs a new dataset's array about as fast as JSON.stringify wrote it (~30 us).
 * Throws when the keys do not all share one hash tag: such an apply could not run on a cluster.
 */
export function encodeOps(first: readonly string[], given: readonly Op[]): EncodedOps {
  const ops = coalesceOps(given)
  const keys = [...first]
  const index = new Map(keys.map((k, i) => [k, i + 1]))
  const keyRef = (key: string): string => {
    let i = index.get(key)
    if (i === undefined) {
      keys.push(key)
      i = keys.length
      index.set(key, i)
    }
    return String(i)
  }
  const args: string[] = [String(ops.length)]
  for (const op of ops) {
    const argc = op.length - 1
    const mask = maskOf(op[0]!, argc)
    args.push(op[0]!, String(argc), mask)
    // A missing value is sent empty, as ioredis sent an undefined argument (packed, it would be a nil in the table).
    for (let i = 0; i < argc; i++) args.push(mask.charCodeAt(i) === K ? keyRef(op[i + 1]!) : op[i + 1] ?? '')
  }
  const tag = hashTagOf(keys[0] ?? '')
  const stray = keys.find((k) => hashTagOf(k) !== tag)
  if (stray !== undefined) throw new Error(`apply: key ${stray} is not in the slot of ${keys[0]} (hash tag ${tag})`)
  return { keys, ops: packStrings(args) }
}

/** Packs strings (MessagePack str, whatever their length); the array's header as its length needs. */
const packer = new Packr({ useRecords: false })

/**
 * `strings` as a MessagePack array that Redis's cmsgpack unpacks to the bytes a RESP argument would have carried: a
 * string with a lone surrogate (which msgpackr would write as its own three bytes) becomes U+FFFD there first, as the
 * UTF-8 encoding of an argument makes it.
 */
function packStrings(strings: readonly string[]): Buffer {
  return packer.pack(strings.every((s) => s.isWellFormed()) ? strings : strings.map((s) => s.toWellFormed()))
}
