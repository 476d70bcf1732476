/**
 * Headless Chromium: Debian's /usr/bin/chromium driven by playwright-core (which cannot download browsers here),
 * with the flags that keep it off the network. Used by the browser tests and by `npm run screenshots`.
 */
import type { Browser } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

/** Launches headless Chromium. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}
