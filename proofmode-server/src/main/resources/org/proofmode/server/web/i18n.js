// SPDX-License-Identifier: Apache-2.0
// The page's sentences in the reader's language: the server puts the page.js.* texts of the language it chose
// (org.proofmode.i18n.Texts) into the page as JSON, and what each check code means in that language
// (report.ReportMeanings, English from verify.Meanings); placeholders {0}, {1} are filled here. The language switch's
// links also keep the part of the address after # (the result shown), which the server never sees.
'use strict';

const I18n = (() => {
  const node = document.getElementById('texts');
  const texts = node ? JSON.parse(node.textContent) : {};
  const meaningsNode = document.getElementById('meanings');
  const meanings = meaningsNode ? JSON.parse(meaningsNode.textContent) : {};
  const lang = document.documentElement.lang || 'en';
  const rtl = document.documentElement.dir === 'rtl';

  // The sentence of a key with its placeholders filled: an array of strings and the nodes given as arguments.
  function parts(key, ...args) {
    const pattern = Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : key;
    return pattern.split(/(\{\d+\})/).filter((p) => p !== '').map((p) => {
      const m = /^\{(\d+)\}$/.exec(p);
      return m && Number(m[1]) < args.length ? args[Number(m[1])] : p;
    });
  }

  // What a check code means in the page's language, or null for a code this version does not know.
  function meaning(code) {
    return Object.prototype.hasOwnProperty.call(meanings, code) ? meanings[code] : null;
  }

  // The sentence of a key as text (its arguments as text too).
  function t(key, ...args) {
    return parts(key, ...args.map(String)).join('');
  }

  // An ISO 8601 instant as written, then in another language than English its long form in UTC, as the
  // reports write it (Texts.date): 2026-03-14T09:00:00Z (14 mars 2026 à 09:00:00 UTC). Other text as it is.
  function date(iso) {
    const value = String(iso);
    if (lang === 'en' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)) return value;
    const when = new Date(value);
    if (isNaN(when.getTime())) return value;
    return value + ' (' + new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(when) + ')';
  }

  // The switch's links keep what follows # in the address.
  function keepHash() {
    for (const a of document.querySelectorAll('nav.languages a[hreflang]')) {
      a.setAttribute('href', a.getAttribute('href').split('#')[0] + location.hash);
    }
  }
  document.addEventListener('DOMContentLoaded', keepHash);
  window.addEventListener('hashchange', keepHash);

  return { t, parts, date, meaning, lang, rtl };
})();
