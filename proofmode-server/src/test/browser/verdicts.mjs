// SPDX-License-Identifier: Apache-2.0
// Uploads bundles through the server's page in Debian's Chromium and prints what the page says.
// Usage: node verdicts.mjs BASE_URL GOOD.zip BAD.zip OUT_DIR [TOKEN LOCATED.zip [ALTERED_SHA256]]
// With a token and a bundle that records a place, it also keeps that bundle as evidence and opens its permalink;
// with the SHA-256 of a stored item whose custody log was altered, it opens that item too.
// Prints one JSON object; exits non-zero if the page cannot be driven.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The element's text, or '' at once when the page has none (innerText would wait for it to appear).
async function textIfAny(locator) {
  return (await locator.count()) ? locator.innerText() : '';
}

const [base, good, bad, out, token, located, altered] = process.argv.slice(2);
if (!base || !good || !bad || !out) {
  console.error('usage: node verdicts.mjs BASE_URL GOOD.zip BAD.zip OUT_DIR');
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), 'proofmode-chromium-'));
// A fresh profile folder: Playwright passes it to Chromium as --user-data-dir.
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const result = { requests: [], consoleErrors: [] };
// A page whose requests to other hosts and script or CSP errors are recorded in the result.
async function watchedPage(viewport) {
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  page.on('request', (r) => { if (!r.url().startsWith(base)) result.requests.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => result.consoleErrors.push(String(e)));
  return page;
}
try {
  for (const [name, viewport] of [['desktop', { width: 1200, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    const page = await watchedPage(viewport);
    await page.goto(base + '/');
    result.title = await page.title();
    result.fileLabel = await page.locator('label[for=files]').innerText();
    for (const [key, file] of [['good', good], ['bad', bad]]) {
      await page.setInputFiles('#files', file);
      // Keyboard only: focus the Check button and press Enter.
      await page.focus('#check');
      await page.keyboard.press('Enter');
      const verdict = page.locator('#result > .verdict .word');
      await verdict.waitFor({ timeout: 30000 });
      await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
      result[name + '.' + key] = {
        verdict: await verdict.getAttribute('data-verdict'),
        words: await verdict.innerText(),
        fingerprint: await page.locator('.fingerprint').first().innerText().catch(() => ''),
        checks: await page.locator('.checks li').count(),
        metadataRows: await page.locator('#result table tbody tr').count(),
      };
      await page.screenshot({ path: join(out, `${name}-${key}.png`), fullPage: name === 'desktop' });
    }
    await page.close();
  }
  {
    // An anonymous check with "Keep a link to this result": a permalink that shows the server's own report.
    const page = await watchedPage({ width: 1000, height: 900 });
    await page.goto(base + '/');
    await page.setInputFiles('#files', good);
    await page.check('#keep-link');
    await page.click('#check');
    const link = page.locator('.result-link a').first();
    await link.waitFor({ timeout: 30000 });
    const permalink = await link.getAttribute('href');
    await page.goto('about:blank');
    await page.goto(permalink);
    await page.locator('.result-link').waitFor({ timeout: 30000 });
    result.anonymous = {
      permalink,
      verdict: await page.locator('#result > .verdict .word').getAttribute('data-verdict'),
      line: await page.locator('.result-link').innerText(),
      fingerprint: await page.locator('.fingerprint').first().innerText(),
      unchecked: await textIfAny(page.locator('#result > .verdict .unchecked')),
    };
    await page.screenshot({ path: join(out, 'desktop-report-link.png'), fullPage: true });
    // The kept result as a document: its PDF link downloads the server's report.
    const [keptPdf] = await Promise.all([page.waitForEvent('download'), page.click('.result-link a.report-pdf')]);
    const keptFile = join(out, 'kept.pdf');
    await keptPdf.saveAs(keptFile);
    result.anonymous.pdf = keptFile;
    await page.close();
    // An unknown link (a fresh page: the browser logs the expected 404 as a console error).
    const other = await browser.newPage();
    await other.goto(base + '/#/report/AAAAAAAAAAAAAAAAAAAAAA');
    await other.locator('#result .v-ERROR').waitFor({ timeout: 30000 });
    result.anonymous.unknown = await other.locator('#result .v-ERROR').innerText();
    await other.close();
  }
  if (process.env.PROOFMODE_EXTRA_BUNDLE) {
    // A bundle with an intact proof, an added photo no proof names, and markup and escapes in its Notes.
    const page = await watchedPage({ width: 1000, height: 900 });
    await page.goto(base + '/');
    await page.setInputFiles('#files', process.env.PROOFMODE_EXTRA_BUNDLE);
    await page.click('#check');
    const verdict = page.locator('#result > .verdict .word');
    await verdict.waitFor({ timeout: 30000 });
    await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
    result.extra = {
      verdict: await verdict.getAttribute('data-verdict'),
      unchecked: await textIfAny(page.locator('#result > .verdict .unchecked')),
      checks: await page.locator('.checks li').allInnerTexts(),
      notes: await page.evaluate(() => [...document.querySelectorAll('#result td')].map((td) => td.textContent)
        .find((t) => t.includes('onerror')) || ''),
      injected: await page.locator('#result img, #result script, #result iframe').count(),
    };
    await page.screenshot({ path: join(out, 'desktop-extra.png'), fullPage: true });
    await page.close();
  }
  if (token && process.env.PROOFMODE_COMPARE_A && process.env.PROOFMODE_COMPARE_B) {
    // A proof and a copy of its photo in another format, compared through the page with the token.
    const page = await watchedPage({ width: 1000, height: 900 });
    await page.goto(base + '/');
    await page.click('summary');
    await page.fill('#token', token);
    await page.setInputFiles('#compare-a', process.env.PROOFMODE_COMPARE_A);
    await page.setInputFiles('#compare-b', process.env.PROOFMODE_COMPARE_B);
    await page.click('#compare');
    const word = page.locator('#result [data-relation]');
    await word.waitFor({ timeout: 30000 });
    result.compare = {
      relation: await word.getAttribute('data-relation'),
      words: await word.innerText(),
      sides: await page.locator('#result li code').allInnerTexts(),
      checks: await page.locator('.checks li').allInnerTexts(),
      injected: await page.locator('#result img, #result script, #result iframe').count(),
    };
    await page.screenshot({ path: join(out, 'desktop-compare.png'), fullPage: true });
    await page.close();
  }
  if (token && located) {
    const page = await watchedPage({ width: 1000, height: 900 });
    await page.goto(base + '/');
    await page.click('summary');
    await page.fill('#token', token);
    await page.setInputFiles('#files', located);
    await page.click('#keep');
    await page.locator('table.custody').waitFor({ timeout: 30000 });
    const permalink = await page.locator('.permalink a').first().getAttribute('href');
    // A permalink opened afresh in the same tab shows the stored item again.
    await page.goto('about:blank');
    await page.goto(permalink);
    await page.locator('table.custody').waitFor({ timeout: 30000 });
    result.evidence = {
      permalink,
      verdict: await page.locator('#result > .verdict .word').getAttribute('data-verdict'),
      custodyFirst: await page.locator('table.custody tbody tr td').nth(2).innerText(),
      chain: await page.locator('.chain').innerText(),
      maps: await page.locator('svg.map.world').count(),
    };
    // The transparency log: once a checkpoint covers the item (the page says so after a reload), its receipt downloads.
    let logged = false;
    for (let i = 0; i < 20 && !logged; i++) {
      logged = (await page.locator('section.tlog a.receipt').count()) > 0;
      if (!logged) {
        await page.waitForTimeout(500);
        await page.reload();
        await page.locator('table.custody').waitFor({ timeout: 30000 });
      }
    }
    result.log = { text: await page.locator('section.tlog').innerText() };
    if (logged) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('section.tlog a.receipt')]);
      const saved = join(out, 'receipt.tlog');
      await download.saveAs(saved);
      result.log.file = download.suggestedFilename();
      result.log.receipt = saved;
    }
    // The offline map: the land outline drawn, the marker where the projection puts it, the close-up and its circle.
    await page.locator('svg.map.world path.land').waitFor({ timeout: 10000 });
    await page.locator('svg.map.inset path.land').first().waitFor({ timeout: 10000 });
    const world = page.locator('svg.map.world');
    const inset = page.locator('svg.map.inset');
    result.map = {
      label: await world.getAttribute('aria-label'),
      landLength: (await world.locator('path.land').getAttribute('d')).length,
      markerX: Number(await world.locator('circle.marker').getAttribute('cx')),
      markerY: Number(await world.locator('circle.marker').getAttribute('cy')),
      insetLabel: await inset.getAttribute('aria-label'),
      insetLand: await inset.locator('path.land').count(),
      insetAccuracyR: Number(await inset.locator('circle.accuracy').getAttribute('r')),
      osm: await page.locator('.place a').getAttribute('href'),
      osmText: await page.locator('.place a').innerText(),
    };
    await page.locator('.place').screenshot({ path: join(out, 'map.png') });
    await page.screenshot({ path: join(out, 'desktop-evidence.png'), fullPage: true });
    // The verification report (PDF) of the stored item, downloaded by its button with the token.
    const [report] = await Promise.all([page.waitForEvent('download'), page.click('.report-link button')]);
    const reportFile = join(out, 'report.pdf');
    await report.saveAs(reportFile);
    result.report = { file: report.suggestedFilename(), path: reportFile };
    if (altered) {
      await page.goto(base + '/#/evidence/' + altered);
      await page.locator('.chain-broken').waitFor({ timeout: 30000 });
      result.altered = {
        warning: await page.locator('.chain-broken').innerText(),
        role: await page.locator('.chain-broken').getAttribute('role'),
        markedRow: await page.locator('table.custody tr.bad-line td').first().innerText(),
      };
      await page.locator('table.custody').screenshot({ path: join(out, 'custody-altered.png') });
    }
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
