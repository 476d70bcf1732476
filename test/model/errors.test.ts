import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { CatalogError, ERRORS, type ErrorCode } from '../../model/errors.ts'

test('every error code is documented in the README with its status', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  for (const [code, entry] of Object.entries(ERRORS)) {
    assert.match(readme, new RegExp(`\\| \`${code}\` \\| ${entry.status} \\|`), `${code} (${entry.status}) in the README's catalogue`)
  }
})

test('an error carries its status and answers with the one body shape', () => {
  const err = new CatalogError('INVALID_URN' as ErrorCode, 'bad urn', [{ path: 'urn', message: 'nope' }])
  assert.equal(err.toBody(), { status: 400, code: 'INVALID_URN', message: 'bad urn', details: [{ path: 'urn', message: 'nope' }] })
  assert.is(new CatalogError('OVERLOADED').status, 503)
})

test.run()
