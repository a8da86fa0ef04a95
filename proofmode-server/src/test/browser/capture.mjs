// SPDX-License-Identifier: Apache-2.0
// Uploads a collection archive (proofmode collect, as publish sends it) through the server's verification
// page in Debian's Chromium and prints what the page shows of the capture: the verdict, the title's text,
// the addresses, the links and elements in the capture's section, and a screenshot.
// Usage: node capture.mjs BASE_URL ARCHIVE SCREENSHOT
// Prints one JSON object ({"verdict", "title", "addresses", "links", "images", "scripts", "media", "consoleErrors", "dialogs"}).
import { launch, watchedPage } from './chromium.mjs';

const [base, archive, screenshot] = process.argv.slice(2);
if (!base || !archive || !screenshot) {
  console.error('usage: node capture.mjs BASE_URL ARCHIVE SCREENSHOT');
  process.exit(2);
}
const browser = await launch();
const result = { consoleErrors: [], dialogs: [] };
try {
  const page = await watchedPage(browser, result);
  await page.goto(base + '/');
  await page.setInputFiles('#files', archive);
  await page.click('#check');
  await page.locator('#capture').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
  Object.assign(result, await page.evaluate(() => {
    const c = document.getElementById('capture');
    return {
      verdict: document.querySelector('#result > .verdict .word').getAttribute('data-verdict'),
      title: document.getElementById('capture-title').textContent,
      addresses: Array.from(c.querySelectorAll('td code')).map((e) => e.textContent),
      links: c.querySelectorAll('a').length,
      images: c.querySelectorAll('img').length,
      scripts: c.querySelectorAll('script').length,
      media: Array.from(c.querySelectorAll('li')).map((e) => e.innerText),
    };
  }));
  await page.locator('#capture').screenshot({ path: screenshot });
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
