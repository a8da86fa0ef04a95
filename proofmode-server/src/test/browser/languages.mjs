// SPDX-License-Identifier: Apache-2.0
// A kept result's page (/#/report/ID) in each of the page's languages, on a desktop and on a phone: on the desktop the
// language comes from the browser's own (Accept-Language), on the phone from the page's switch (?lang=). For each, this
// script records the page's lang and dir, the verdict and whether it is in the first screen, the page's text (to look
// for key names and English left behind), each check's meaning and message, the report link, how the layout is mirrored, and takes a screenshot of the first screen.
// Usage: node languages.mjs BASE_URL REPORT_ID OUT_DIR
// Prints one JSON object ({"pages": {"TAG-SCREEN": {...}}, "consoleErrors": [...]}); screenshots go to
// OUT_DIR/lang-TAG-SCREEN.png (and OUT_DIR/lang-TAG-desktop-full.png, the whole page; OUT_DIR/lang-TAG-phone-start.png,
// the page before a result).
import { launch } from './chromium.mjs';
import { join } from 'node:path';

const [base, id, out] = process.argv.slice(2);
if (!base || !id || !out) {
  console.error('usage: node languages.mjs BASE_URL REPORT_ID OUT_DIR');
  process.exit(2);
}
// Each language, with the browser language a reader of it might have.
const LANGUAGES = { en: 'en-US', es: 'es-CO', fr: 'fr-FR', ar: 'ar-SY', uk: 'uk-UA', 'zh-Hans': 'zh-CN' };
const SCREENS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};
const browser = await launch();
const result = { pages: {}, consoleErrors: [] };
try {
  for (const [tag, locale] of Object.entries(LANGUAGES)) {
    for (const [screen, options] of Object.entries(SCREENS)) {
      const desktop = screen === 'desktop';
      const context = await browser.newContext(Object.assign({ locale: desktop ? locale : 'en-US' }, options));
      const page = await context.newPage();
      page.on('console', (m) => { if (m.type() === 'error') result.consoleErrors.push(tag + ' ' + screen + ': ' + m.text()); });
      page.on('pageerror', (e) => result.consoleErrors.push(tag + ' ' + screen + ': ' + String(e)));
      if (!desktop) {
        // The page as a reader first finds it, before any result: its form and the language links.
        await page.goto(base + '/?lang=' + encodeURIComponent(tag));
        await page.screenshot({ path: join(out, `lang-${tag}-phone-start.png`) });
        result.pages[tag + '-start'] = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
          switchTop: document.querySelector('nav.languages').getBoundingClientRect().top }));
      }
      await page.goto(base + (desktop ? '/' : '/?lang=' + encodeURIComponent(tag)) + '#/report/' + id);
      await page.locator('#result > .verdict .word').waitFor({ timeout: 60000 });
      await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
      await page.locator('svg.map.world path.land').waitFor({ timeout: 10000 });
      await page.waitForTimeout(200);
      const seen = await page.evaluate(() => {
        const html = document.documentElement;
        const verdict = document.querySelector('#result > .verdict');
        const box = verdict.getBoundingClientRect();
        const rect = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().toJSON() : null; };
        const style = (sel, prop) => { const e = document.querySelector(sel); return e ? getComputedStyle(e)[prop] : null; };
        const attributes = Array.from(document.querySelectorAll('[aria-label], [title], title, svg title'))
          .map((e) => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '') + ' ' + (e.tagName.toLowerCase() === 'title' ? e.textContent : ''));
        const scale = document.querySelector('svg.map.inset .scale-label');
        // Whether the first character of an element's text is drawn left of its second (text read left to right).
        const leftToRight = (sel) => {
          const e = document.querySelector(sel);
          const text = e && e.firstChild;
          if (!text || text.nodeType !== Node.TEXT_NODE || text.length < 2) return null;
          const at = (i) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1); return r.getBoundingClientRect().left; };
          return at(0) < at(1);
        };
        return {
          lang: html.getAttribute('lang'),
          dir: html.getAttribute('dir'),
          direction: getComputedStyle(document.body).direction,
          title: document.title,
          verdict: verdict.querySelector('.word').getAttribute('data-verdict'),
          words: verdict.querySelector('.word').innerText,
          verdictTop: box.top,
          verdictBottom: box.bottom,
          innerHeight: window.innerHeight,
          innerWidth: window.innerWidth,
          scrollWidth: html.scrollWidth,
          text: document.body.innerText + '\n' + attributes.join('\n'),
          fingerprintDirection: style('.fingerprint', 'direction'),
          fingerprintLeftToRight: leftToRight('.fingerprint'),
          fileNameLeftToRight: leftToRight('.lead code'),
          hintFileNameLeftToRight: leftToRight('.drop-hint bdi'),
          timeLeftToRight: leftToRight('.facts time'),
          factBorderRight: style('.facts > div', 'borderRightWidth'),
          factBorderLeft: style('.facts > div', 'borderLeftWidth'),
          thTextAlign: style('#result table th', 'textAlign'),
          thDirection: style('#result table th', 'direction'),
          world: rect('svg.map.world'),
          inset: rect('svg.map.inset'),
          scaleLabelX: scale ? Number(scale.getAttribute('x')) : null,
          badge: rect('#result ul.checks li .badge'),
          checks: Array.from(document.querySelectorAll('#result ul.checks li')).map((li) => ({
            code: li.querySelector('.code').innerText.split(' — ')[0],
            meaning: li.querySelector('.meaning') ? li.querySelector('.meaning').innerText : null,
            found: li.querySelector('.found') ? li.querySelector('.found').innerText : null })),
          reportPdf: document.querySelector('a.report-pdf') ? document.querySelector('a.report-pdf').getAttribute('href') : null,
          checkItem: rect('#result ul.checks li'),
          timeNames: Array.from(document.querySelectorAll('#result table.times th')).map((th) => th.innerText),
          heading: document.querySelector('#result > h2').innerText,
          injected: document.querySelectorAll('#result img, #result script, #result b').length,
          proofMade: Array.from(document.querySelectorAll('.facts > div')).map((d) => d.innerText).find((t) => /\d{4}-\d\d-\d\dT/.test(t)) || '',
          switchLinks: Array.from(document.querySelectorAll('nav.languages a[hreflang]')).map((a) => ({
            hreflang: a.getAttribute('hreflang'), href: a.getAttribute('href'), current: a.getAttribute('aria-current') })),
        };
      });
      await page.screenshot({ path: join(out, `lang-${tag}-${screen}.png`) });
      if (desktop) await page.screenshot({ path: join(out, `lang-${tag}-desktop-full.png`), fullPage: true });
      result.pages[tag + '-' + screen] = seen;
      await context.close();
    }
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
