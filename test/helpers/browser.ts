/**
 * Browser tests: headless Chromium (ops/docs/chromium.ts). Tests skip, saying so, when it is not installed, and
 * keep their screenshots in a temporary folder: the README's pictures are refreshed by `npm run screenshots`,
 * never by a test run.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { suite, type Test } from 'uvu'
import { CHROMIUM, launchChromium } from '../../ops/docs/chromium.ts'
import type { TestService } from './service.ts'

export { CHROMIUM, launchChromium }

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

/**
 * A suite of browser tests on a service of their own: before them `setUp` starts it (`ctx.svc`) and loads what they
 * need, then Chromium is launched (`ctx.browser`); both are closed after. Answers the suite (to run) and the way to
 * declare its tests, which skips them, saying so, when Chromium is not installed.
 */
export function browserSuite<C extends { svc: TestService; browser: Browser }>(title: string, setUp: (ctx: C) => Promise<void>): { suite: Test<C>; test: Test<C> | Test<C>['skip'] } {
  const s = suite<C>(title)
  s.before(async (ctx) => {
    await setUp(ctx)
    ctx.browser = await launchChromium()
  })
  s.after(async (ctx) => {
    await ctx.browser?.close()
    await ctx.svc?.close()
  })
  return { suite: s, test: browserAvailable(title) ? s : s.skip }
}
