// SPDX-License-Identifier: Apache-2.0
// Uploads bundles one by one through the server's verification page in Debian's Chromium and prints, for
// each, the verdict and the text of every check the page lists (message and code), as a reader sees them.
// Usage: node integrity.mjs BASE_URL BUNDLE...
// Prints one JSON object ({"results": [{"file", "verdict", "checks": [...]}], "consoleErrors": [...]}).
import { launch } from './chromium.mjs';

const [base, ...bundles] = process.argv.slice(2);
if (!base || bundles.length === 0) {
  console.error('usage: node integrity.mjs BASE_URL BUNDLE...');
  process.exit(2);
}
const browser = await launch();
const result = { results: [], consoleErrors: [] };
try {
  for (const bundle of bundles) {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => result.consoleErrors.push(String(e)));
    await page.goto(base + '/');
    await page.setInputFiles('#files', bundle);
    await page.click('#check');
    await page.locator('#result > .verdict .word').waitFor({ timeout: 60000 });
    await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
    result.results.push(await page.evaluate((file) => ({
      file,
      verdict: document.querySelector('#result > .verdict .word').getAttribute('data-verdict'),
      checks: Array.from(document.querySelectorAll('#result ul.checks li')).map((li) => li.innerText),
    }), bundle));
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
