/**
 * Headless Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core (which cannot download
 * browsers here), with the flags that keep it off the network. Tests skip, saying so, when it is not installed.
 */
import { existsSync, mkdirSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

/** Whether browser tests can run; prints why not when they cannot. */
export function browserAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true
  console.log(`SKIP ${what}: ${CHROMIUM} not found (apt-get install -y chromium)`)
  return false
}

/** Launches headless Chromium. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

/** Saves a screenshot of `page` under ops/docs/screenshots/ (committed; the README shows them). */
export async function screenshot(page: Page, file: string): Promise<void> {
  const url = new URL(`../../ops/docs/screenshots/${file}`, import.meta.url)
  mkdirSync(new URL('.', url), { recursive: true })
  await page.screenshot({ path: url.pathname, fullPage: false })
}
