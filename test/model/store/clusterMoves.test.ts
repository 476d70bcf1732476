/**
 * The pure parts of riding out failovers and slot moves: which store failures answer which 503 code
 * (storeFailures.ts), how a redirection is read (redirects.ts), and how index placement reads the cluster's map
 * (CLUSTER NODES, with a node's own open slots).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { storeFailure } from '../../../model/store/storeFailures.ts'
import { redirection } from '../../../model/store/redirects.ts'
import { movingFailure, parseClusterNodes } from '../../../model/search/redisearch/placement.ts'
import { toCatalogError } from '../../../gateway/http/errors.ts'

const t = suite('cluster moves: failures, redirections, the cluster map')

t('a redisearch query sent again while its shard moves: what each failure means', () => {
  const cases: [string, ReturnType<typeof movingFailure>][] = [
    ['Unknown Index name', 'missing'],
    ['svc:{s3}:idx:dataset: no such index', 'missing'],
    ['ASK 3300 127.0.0.1:7002', 'moving'],
    ['TRYAGAIN Multiple keys request during rebalancing', 'moving'],
    ['CLUSTERDOWN The cluster is down', 'moving'],
    ["Cannot read properties of undefined (reading 'replicas')", 'moving'],
    ['The client is offline', 'gone'],
    ['The client is closed', 'gone'],
    ['Disconnects client', 'gone'],
    ['Socket closed unexpectedly', 'gone'],
    ['connect ECONNREFUSED 127.0.0.1:7004', 'gone'],
    ['All the root nodes are unavailable', 'gone'],
    ['Connection timeout', 'gone'],
    ['Cannot find node 127.0.0.1:7004', 'moving'],
    ['MOVED 3300 127.0.0.1:7002', 'moving'],
    ['Syntax error at offset 3 near foo', undefined],
    ["Cannot read properties of undefined (reading 'x')", undefined],
  ]
  for (const [message, kind] of cases) assert.is(movingFailure(message), kind, message)
})

t('every failure of a failover or slot move is a 503 with a code saying what happened', () => {
  const cases: [string, string | undefined][] = [
    ['TRYAGAIN Multiple keys request during rebalancing', 'SLOT_MOVING'],
    ['ASK 3300 127.0.0.1:7002', 'SLOT_MOVING'],
    ['MOVED 3300 127.0.0.1:7002', 'SLOT_MOVING'],
    ['Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rebalancing', 'SLOT_MOVING'],
    ['All keys in the pipeline should belong to the same slots allocation group', 'SLOT_MOVING'],
    ['svc:{s3}:idx:dataset: no such index', 'SLOT_MOVING'],
    ['Unknown Index name', 'SLOT_MOVING'],
    ['ERR Script attempted to access a non local key in a cluster node script: 1bbd, on @user_script:256.', 'SLOT_MOVING'],
    ['CLUSTERDOWN The cluster is down', 'CLUSTER_DOWN'],
    ['CLUSTERDOWN Hash slot not served', 'CLUSTER_DOWN'],
    ['Failed to refresh slots cache.', 'CLUSTER_DOWN'],
    ['READONLY You can\'t write against a read only replica.', 'UNAVAILABLE'],
    ['Connection is closed.', 'UNAVAILABLE'],
    ['Command aborted due to connection close', 'UNAVAILABLE'],
    ['Reached the max retries per request limit (which is 2). Refer to "maxRetriesPerRequest" option for details.', 'UNAVAILABLE'],
    ['LOADING Redis is loading the dataset in memory', 'UNAVAILABLE'],
    ['The client is offline', 'UNAVAILABLE'],
    ['Disconnects client', 'UNAVAILABLE'],
    ['All the root nodes are unavailable', 'UNAVAILABLE'],
    ['Connection timeout', 'UNAVAILABLE'],
    ['Cannot find node 127.0.0.1:7004', 'SLOT_MOVING'],
    ['Cannot read properties of undefined (reading \'x\')', undefined],
  ]
  for (const [message, code] of cases) {
    assert.is(storeFailure(message)?.code, code, message)
    const answer = toCatalogError(new Error(message))
    assert.is(answer.status, code ? 503 : 500, message)
    if (code) assert.is(answer.retryAfter, 1, `${message}: Retry-After`)
  }
})

t('redirections: ASK and MOVED name their node, TRYAGAIN and CLUSTERDOWN pause, others are not redirections', () => {
  assert.equal(redirection('ASK 3300 127.0.0.1:7002'), { kind: 'ASK', host: '127.0.0.1', port: 7002 })
  assert.equal(redirection('MOVED 12 10.0.0.5:6379'), { kind: 'MOVED', host: '10.0.0.5', port: 6379 })
  assert.equal(redirection('TRYAGAIN Multiple keys request during rebalancing'), { kind: 'PAUSE' })
  assert.equal(redirection('CLUSTERDOWN The cluster is down'), { kind: 'PAUSE' })
  assert.equal(redirection('ERR Script attempted to access a non local key in a cluster node script: 1bbd'), { kind: 'PAUSE' })
  assert.is(redirection('ERR wrong number of arguments'), undefined)
})

t('the cluster map: masters, their slot ranges, and the open slots on the asking node\'s own line', () => {
  const text = [
    'aaa 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [3300->-bbb] [7000-<-ccc]',
    'bbb 127.0.0.1:7001@17001 master - 0 1 2 connected 5461-10922 12000',
    'ccc 127.0.0.1:7002@17002 master,fail - 0 1 3 connected 10923-11999 12001-16383',
    'ddd 127.0.0.1:7003@17003 slave aaa 0 1 1 connected',
    'eee 127.0.0.1:7004@17004 master - 0 1 4 connected [5-<-aaa]',
  ].join('\n')
  const masters = parseClusterNodes(text)
  assert.equal(masters.map((m) => m.id), ['aaa', 'bbb', 'eee'])
  assert.equal(masters[0]!.ranges, [[0, 5460]])
  assert.equal([...masters[0]!.migrating], [[3300, 'bbb']])
  assert.equal([...masters[0]!.importing], [[7000, 'ccc']])
  assert.equal(masters[1]!.ranges, [[5461, 10922], [12000, 12000]])
  assert.equal(masters[1]!.address, '127.0.0.1:7001')
  // Another node's open slots are not read from someone else's view.
  assert.is(masters[2]!.importing.size, 0)
})

t.run()
