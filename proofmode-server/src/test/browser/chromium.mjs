// SPDX-License-Identifier: Apache-2.0
// Debian's Chromium, headless, as the page scripts launch it, and a page that records its script errors and
// dialogs (a dialog is dismissed: a stranger's markup that ran would open one).
import { chromium } from 'playwright-core';

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

export async function watchedPage(browser, result) {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') result.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => result.consoleErrors.push(String(e)));
  page.on('dialog', async (d) => { result.dialogs.push(d.message()); await d.dismiss(); });
  return page;
}
