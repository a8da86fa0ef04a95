// SPDX-License-Identifier: Apache-2.0
// A person's first look at a result: on a desktop and on a phone, they Tab to the file input, choose a bundle,
// Tab on to Check and press Enter; then this script records what is in their view (the verdict, or not),
// what has focus, what a screen reader is told, and whether the page scrolls sideways.
// Usage: node first-look.mjs BASE_URL BUNDLE OUT_DIR [keep]
// With "keep", they also tick "Keep a link to this result" (Space, as Tab passes it), and the link is recorded.
// Prints one JSON object (screens: desktop, phone); exits non-zero if the page cannot be driven.
// Screenshots of the viewport (what the person sees, not the whole page) go to OUT_DIR/first-look-SCREEN.png.
import { launch } from './chromium.mjs';
import { join } from 'node:path';

const [base, bundle, out, keep] = process.argv.slice(2);
if (!base || !bundle || !out) {
  console.error('usage: node first-look.mjs BASE_URL BUNDLE OUT_DIR [keep]');
  process.exit(2);
}
const SCREENS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
};
const browser = await launch();
const result = { screens: {}, consoleErrors: [] };
try {
  for (const [name, options] of Object.entries(SCREENS)) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => result.consoleErrors.push(String(e)));
    await page.goto(base + '/');
    const screen = { tabs: [] };
    // Keyboard only: Tab until the file input has focus (choosing the file itself is the system's dialog).
    const focused = () => page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));
    for (let i = 0; i < 8 && (await focused()) !== 'files'; i++) {
      await page.keyboard.press('Tab');
      screen.tabs.push(await focused());
    }
    await page.setInputFiles('#files', bundle);
    for (let i = 0; i < 8 && (await focused()) !== 'check'; i++) {
      await page.keyboard.press('Tab');
      screen.tabs.push(await focused());
      if (keep === 'keep' && (await focused()) === 'keep-link') await page.keyboard.press('Space');
    }
    await page.keyboard.press('Enter');
    const word = page.locator('#result > .verdict .word');
    await word.waitFor({ timeout: 60000 });
    await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
    // Let a smooth or late scroll settle before looking.
    await page.waitForTimeout(300);
    Object.assign(screen, await page.evaluate(() => {
      const w = document.querySelector('#result > .verdict .word');
      const box = w.getBoundingClientRect();
      const active = document.activeElement;
      const live = document.querySelector('[aria-live]:not(#result), [role=status]:not(#result *)');
      return {
        verdict: w.getAttribute('data-verdict'),
        words: w.innerText,
        top: box.top,
        bottom: box.bottom,
        innerHeight: window.innerHeight,
        innerWidth: window.innerWidth,
        scrollWidth: document.documentElement.scrollWidth,
        scrollY: window.scrollY,
        pageHeight: document.documentElement.scrollHeight,
        focusTag: active ? active.tagName : '',
        focusText: active ? active.innerText.slice(0, 200) : '',
        focusTop: active ? active.getBoundingClientRect().top : null,
        focusIsAboveVerdict: !!active && active.nextElementSibling === w.closest('.verdict'),
        resultLive: document.getElementById('result').getAttribute('aria-live'),
        announcer: live ? { role: live.getAttribute('role'), live: live.getAttribute('aria-live'), text: live.textContent } : null,
      };
    }));
    if (keep === 'keep') {
      screen.permalink = await page.locator('.result-link a').first().getAttribute('href', { timeout: 5000 }).catch(() => null);
    }
    await page.screenshot({ path: join(out, `first-look-${name}.png`) });
    result.screens[name] = screen;
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
