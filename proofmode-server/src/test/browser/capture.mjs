// SPDX-License-Identifier: Apache-2.0
// Uploads a collection archive (proofmode collect, as publish sends it) through the server's verification
// page in Debian's Chromium and prints what the page shows of the capture: the verdict, the title's text,
// the addresses, the links and elements in the capture's section, and a screenshot. With a fourth argument, the
// same upload again on a phone (390×844) in Arabic (?lang=ar): the page's direction, the capture's headings and
// the checks' meanings, whether anything scrolls sideways, and a screenshot of the whole page.
// Usage: node capture.mjs BASE_URL ARCHIVE SCREENSHOT [ARABIC_PHONE_SCREENSHOT]
// Prints one JSON object ({"verdict", "title", "addresses", "links", "images", "scripts", "media", "consoleErrors",
// "dialogs", and "arabic": {"dir", "heading", "captions", "meanings", "scrollWidth", "innerWidth", ...}}).
import { launch, watchedPage } from './chromium.mjs';

const [base, archive, screenshot, arabicShot] = process.argv.slice(2);
if (!base || !archive || !screenshot) {
  console.error('usage: node capture.mjs BASE_URL ARCHIVE SCREENSHOT [ARABIC_PHONE_SCREENSHOT]');
  process.exit(2);
}

// Checks the archive on the page at this address and returns what its capture section shows.
async function upload(page, address) {
  await page.goto(address);
  await page.setInputFiles('#files', archive);
  await page.click('#check');
  await page.locator('#capture').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => document.getElementById('result').getAttribute('aria-busy') === 'false');
  return page.evaluate(() => {
    const c = document.getElementById('capture');
    const html = document.documentElement;
    return {
      verdict: document.querySelector('#result > .verdict .word').getAttribute('data-verdict'),
      title: document.getElementById('capture-title').textContent,
      addresses: Array.from(c.querySelectorAll('td code')).map((e) => e.textContent),
      addressDirections: Array.from(c.querySelectorAll('td code')).map((e) => getComputedStyle(e).direction),
      links: c.querySelectorAll('a').length,
      images: c.querySelectorAll('img').length,
      scripts: c.querySelectorAll('script').length,
      media: Array.from(c.querySelectorAll('li')).map((e) => e.innerText),
      dir: html.getAttribute('dir'),
      heading: c.querySelector('h2') ? c.querySelector('h2').innerText : null,
      captions: Array.from(c.querySelectorAll('caption, th')).map((e) => e.innerText),
      meanings: Array.from(document.querySelectorAll('#result ul.checks li .meaning')).map((e) => e.innerText),
      scrollWidth: html.scrollWidth,
      innerWidth: window.innerWidth,
    };
  });
}

const browser = await launch();
const result = { consoleErrors: [], dialogs: [] };
try {
  const page = await watchedPage(browser, result);
  Object.assign(result, await upload(page, base + '/'));
  await page.locator('#capture').screenshot({ path: screenshot });
  if (arabicShot) {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const arabic = await watchedPage(phone, result);
    result.arabic = await upload(arabic, base + '/?lang=ar');
    await arabic.screenshot({ path: arabicShot, fullPage: true });
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
