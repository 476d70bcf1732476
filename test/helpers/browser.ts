/**
 * Browser tests: headless Chromium (ops/docs/chromium.ts). Tests skip, saying so, when it is not installed, and
 * keep their screenshots in a temporary folder: the README's pictures are refreshed by `npm run screenshots`,
 * never by a test run.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { CHROMIUM } from '../../ops/docs/chromium.ts'

export { CHROMIUM, launchChromium } from '../../ops/docs/chromium.ts'

/** Whether browser tests can run; prints why not when they cannot. */
export function browserAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true
  console.log(`SKIP ${what}: ${CHROMIUM} not found (apt-get install -y chromium)`)
  return false
}

/** Where a test's screenshot goes: a temporary folder of this test process (SCREENSHOT_DIR to choose one). */
export function screenshotPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.SCREENSHOT_DIR || join(tmpdir(), `svc-test-screenshots-${process.pid}`), file)
}

/** Saves a screenshot of `page` (for looking at after a failure); answers where. */
export async function screenshot(page: Page, file: string): Promise<string> {
  const path = screenshotPath(file)
  mkdirSync(join(path, '..'), { recursive: true })
  await page.screenshot({ path, fullPage: false })
  return path
}
