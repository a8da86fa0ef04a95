// SPDX-License-Identifier: Apache-2.0
// The verification page: plain DOM, no outside code. Every value from a report is set as text, never as HTML.
// Its sentences are the reader's language's (I18n, i18n.js); hashes, codes, commands and URLs are shown left to right.
'use strict';

const { t, parts } = I18n;
const VERDICTS = ['TRUSTED', 'VALID', 'INCOMPLETE', 'INVALID'];
// A verdict's words and what it says, for a known verdict; the verdict itself otherwise.
function verdictWords(verdict) {
  return VERDICTS.includes(verdict) ? [t('page.js.verdict.' + verdict), t('page.js.verdict.' + verdict + '.said')] : [verdict, ''];
}
// Checks naming files the verdict does not speak for (CheckCodes: bundle.entry.*, bundle.file.unchecked, media.missing).
const UNCHECKED_CODES = ['bundle.entry.unproved', 'bundle.entry.unknown', 'bundle.file.unchecked', 'media.missing'];
const STATUSES = ['PASS', 'WARN', 'FAIL', 'INFO'];

const $ = (id) => document.getElementById(id);
let lastFiles = [];

// Text is set as text, so markup stays markup; and, with the same visible escapes as the command line
// (org.proofmode.util.SafeText), control characters, bidirectional marks and overrides, line separators,
// unpaired surrogates and the backslash are shown as escapes, so a sender's text cannot reorder what is shown.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };
function shown(value) {
  return String(value).replace(UNSAFE, (c) => NAMED[c] || '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null) continue;
    e.append(c instanceof Node ? c : document.createTextNode(shown(c)));
  }
  return e;
}

// Text that must read left to right inside text of either direction (a hash, fingerprint, command or URL).
function ltr(tag, attrs, ...children) {
  return el(tag, Object.assign({ dir: 'ltr' }, attrs), ...children);
}

// A time: the ISO form left to right, then the language's own form (I18n.date).
function when(iso) {
  if (!iso) return iso;
  const local = I18n.date(iso).slice(String(iso).length).replace(/^ \((.*)\)$/, '$1');
  return el('span', {}, el('time', { datetime: iso, dir: 'ltr' }, iso), local ? [' (', el('bdi', {}, local), ')'] : null);
}

function token() { return sessionStorage.getItem('proofmode.token') || ''; }

function busy(on) {
  $('result').setAttribute('aria-busy', on ? 'true' : 'false');
  if (on) announce(t('page.js.checking'));
  $('check').disabled = on;
  $('keep').disabled = on || lastFiles.length === 0 || !token();
}

function formOf(files) {
  const form = new FormData();
  for (const f of files) form.append('file', f, f.name);
  return form;
}

async function call(method, url, body, needToken) {
  const headers = {};
  if (needToken) headers.Authorization = 'Bearer ' + token();
  const res = await fetch(url, { method, body, headers, credentials: 'omit' });
  const text = await res.text();
  let doc;
  try { doc = JSON.parse(text); } catch (e) { doc = { detail: text }; }
  if (!res.ok) throw new Error((doc.title ? doc.title + ': ' : '') + (doc.detail || res.status));
  return doc;
}

// Tells a screen reader what happened, in the one live region that is always on the page (a region added with
// the result itself is not reliably read), without reading out the whole result.
function announce(text) {
  $('announce').textContent = shown(text);
}

// The first thing in view after a check is its verdict: focus moves to the result's heading (or the verdict's
// words) without the browser's own scrolling, which centres a tall result and leaves the verdict far above the
// view; then that heading, and the verdict under it, are scrolled to the top of the view.
function present(heading) {
  heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  heading.scrollIntoView({ block: 'start' });
}

function showError(message) {
  const r = $('result');
  r.replaceChildren(el('div', { class: 'verdict v-ERROR', role: 'alert' },
    el('p', { class: 'word' }, t('page.js.error.word')), el('p', { class: 'detail' }, message)));
  present(r.querySelector('.word'));
}

async function check(event) {
  event.preventDefault();
  if (lastFiles.length === 0) { showError(t('page.js.error.noFiles')); return; }
  busy(true);
  try {
    const url = '/api/v1/verify' + ($('keep-link').checked ? '?keep=true' : '');
    const answer = await call('POST', url, formOf(lastFiles), false);
    render(answer, null, answer);
  } catch (e) {
    showError(e.message);
  } finally { busy(false); }
}

async function keep() {
  busy(true);
  try {
    const stored = await call('POST', '/api/v1/evidence', formOf(lastFiles), true);
    location.hash = '#/evidence/' + stored.sha256;
  } catch (e) {
    showError(e.message);
  } finally { busy(false); }
}

async function showReport(id) {
  busy(true);
  try {
    const kept = await call('GET', '/api/v1/reports/' + encodeURIComponent(id), undefined, false);
    render(kept.report, null, kept);
  } catch (e) {
    showError(e.message);
  } finally { busy(false); }
}

async function route() {
  const kept = /^#\/report\/([A-Za-z0-9_-]{22})$/.exec(location.hash);
  if (kept) { showReport(kept[1]); return; }
  const m = /^#\/evidence\/([0-9a-f]{64})(?:\/([^/]+))?$/.exec(location.hash);
  if (!m) return;
  if (!token()) {
    $('token-box').open = true;
    showError(t('page.js.error.evidenceToken'));
    return;
  }
  busy(true);
  try {
    const item = await call('GET', '/api/v1/evidence/' + m[1], undefined, true);
    render(item.report, item, null);
    if (m[2]) {
      const target = document.getElementById('proof-' + decodeURIComponent(m[2]));
      if (target) target.scrollIntoView();
    }
  } catch (e) {
    showError(e.message);
  } finally { busy(false); }
}

function verdictBox(verdict, heading, unchecked, noMedia) {
  const [word, said] = verdictWords(verdict);
  // A bundle without its media (proof only): the verdict speaks for the proof records alone.
  let explain = said;
  if (noMedia) {
    explain = ['TRUSTED', 'VALID'].includes(verdict) ? t('page.js.verdict.' + verdict + '.noMedia') : said + ' ' + t('page.js.verdict.noMedia');
  }
  return el('div', { class: 'verdict v-' + verdict, role: 'status' },
    el('p', { class: 'word', 'data-verdict': verdict }, heading ? t('page.js.verdict.of', word) : word),
    el('p', {}, explain),
    unchecked && unchecked.length ? el('p', { class: 'unchecked' }, parts('page.js.unchecked',
      el('bdi', {}, unchecked.join(', ')))) : null);
}

function uncheckedOf(report) {
  const all = report.checks.concat(...report.proofs.map((p) => p.checks));
  const names = all.filter((c) => UNCHECKED_CODES.includes(c.code) && !(c.code === 'media.missing' && withoutMedia(report)))
    .map((c) => (c.code === 'media.missing' ? t('page.js.unchecked.media', c.subject) : c.subject));
  return [...new Set(names)];
}

// Whether no proof of the report had its media (a proof-only bundle).
function withoutMedia(report) {
  return report.proofs.length > 0 && report.proofs.every((p) => p.checks.some((c) => c.code === 'media.missing'));
}

// Each check: what its code means in the page's language, then what it found (the API's message, English, as
// detail under it), then its code and subject; a code this version does not know shows the message alone.
function checkList(checks) {
  return el('ul', { class: 'checks' }, checks.map((c) => {
    const meaning = I18n.meaning(c.code);
    return el('li', {},
      el('span', { class: 'badge s-' + c.status }, STATUSES.includes(c.status) ? t('page.js.status.' + c.status) : c.status),
      el('span', {}, meaning ? el('span', { class: 'meaning' }, meaning) : null,
        // the message is English: marked so, and in a right-to-left page started on the right like the code under it
        el('bdi', Object.assign({ class: meaning ? 'found' : null }, I18n.lang !== 'en' ? { lang: 'en', dir: 'ltr' } : {}), c.message),
        el('span', { class: 'code', dir: 'ltr' }, c.code + ' — ' + c.subject)));
  }));
}

function table(rows, caption) {
  return el('table', {}, el('caption', { class: 'hint' }, caption),
    el('tbody', {}, rows.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v)))));
}

// A record field's plain name in the page's language where the report has one (report.PlainNames), else its own name.
function fieldName(field) {
  const name = t('field:' + field);
  return name === 'field:' + field ? field : name;
}

function fact(label, value) {
  return value ? el('div', {}, el('span', { class: 'k' }, label), value) : null;
}

function grouped(fp) { return fp.replace(/(.{4})/g, '$1 ').trim(); }

function placeFact(record, context) {
  const lat = parseFloat(record['Location.Latitude']);
  const lon = parseFloat(record['Location.Longitude']);
  if (!isFinite(lat) || !isFinite(lon)) return null;
  const link = el('a', { href: 'https://www.openstreetmap.org/?mlat=' + lat + '&mlon=' + lon + '#map=15/' + lat + '/' + lon,
    rel: 'noopener noreferrer', target: '_blank' }, t('page.js.osm'));
  const accuracy = parseFloat(record['Location.Accuracy']);
  return el('div', { class: 'place' }, el('span', { class: 'k' }, t('page.js.location')),
    ltr('span', {}, context.location || (lat + ', ' + lon + (isFinite(accuracy) ? ' ±' + accuracy + ' m' : ''))), ProofMap.views(lat, lon, accuracy), link);
}

function proofSection(p, item, kept) {
  const ctx = p.context || {};
  const section = el('section', { class: 'card', id: 'proof-' + p.id, 'aria-labelledby': 'h-' + p.id });
  section.append(el('h2', { id: 'h-' + p.id }, parts('page.js.proofOf', el('bdi', {}, el('code', {}, p.media || p.id)))));
  section.append(verdictBox(p.verdict, true));
  const signer = p.signer ? el('span', {}, ltr('code', { class: 'fingerprint' }, grouped(p.signer.fingerprint)), el('br'),
    p.signer.trusted ? t('page.js.key.trusted') : t('page.js.key.untrusted'), ' · ', p.signer.algorithm,
    p.signer.userId ? ' · ' : '', p.signer.userId ? el('bdi', {}, p.signer.userId) : '') : t('page.js.key.none');
  section.append(el('div', { class: 'facts' },
    fact(t('page.js.fact.signer'), signer),
    fact(t('page.js.fact.captured'), when(ctx.captureTime)),
    fact(t('page.js.fact.proofMade'), when(p.times && p.times['Proof Generated'])),
    fact(t('page.js.fact.device'), ctx.device ? el('bdi', {}, ctx.device) : null),
    fact(t('page.js.fact.camera'), ctx.camera ? el('bdi', {}, ctx.camera) : null),
    fact(t('page.js.fact.mediaSha256'), p.sha256 ? ltr('code', {}, p.sha256) : null),
    placeFact(p.record || {}, ctx)));
  if (item) {
    const href = window.location.origin + '/#/evidence/' + item.sha256 + '/' + encodeURIComponent(p.id);
    section.append(el('p', { class: 'permalink' }, parts('page.js.permalink', ltr('a', { href }, href))));
  } else if (!kept || !kept.permalink) {
    section.append(el('p', { class: 'permalink hint' }, t('page.js.permalink.hint')));
  }
  const stamps = p.checks.filter((c) => c.code.startsWith('timestamp.'));
  section.append(el('h3', {}, t('page.js.checks')), checkList(p.checks.filter((c) => !c.code.startsWith('timestamp.'))));
  section.append(el('h3', {}, t('page.js.timestamps')), stamps.length ? checkList(stamps) : el('p', { class: 'hint' }, t('page.js.timestamps.none')));
  if (p.times && Object.keys(p.times).length) {
    const times = table(Object.entries(p.times).map(([k, v]) => [fieldName(k), when(v)]), t('page.js.times.caption'));
    times.classList.add('times');
    section.append(times);
  }
  section.append(el('h3', {}, t('page.js.metadata')), table(Object.entries(p.record || {}).map(([k, v]) => [k, el('bdi', {}, v)]),
    t('page.js.metadata.caption')));
  return section;
}

function chainState(chain) {
  if (!chain) return null;
  if (chain.intact) {
    return el('p', { class: 'chain chain-ok', role: 'status' }, parts('page.js.chain.intact', String(chain.length), ltr('code', {}, chain.head)));
  }
  return el('p', { class: 'chain chain-broken', role: 'alert' }, t('page.js.chain.broken') + ' ',
    chain.brokenAt < chain.length ? t('page.js.chain.firstBad', chain.brokenAt + 1) + ' ' : '', chain.problem ? el('bdi', {}, chain.problem) : '');
}

function custody(item) {
  const chain = item.custodyChain || {};
  const rows = item.custody.map((c, i) => el('tr', { class: !chain.intact && i === chain.brokenAt ? 'bad-line' : null },
    el('td', {}, String(i + 1)), el('td', {}, when(c.at)), el('td', { dir: 'ltr' }, c.action), el('td', {}, el('bdi', {}, c.actor)),
    el('td', { dir: 'ltr' }, c.remote), el('td', { dir: 'ltr' }, c.verdict || ''), el('td', {}, el('bdi', {}, c.detail)),
    el('td', {}, ltr('code', { title: c.hash }, (c.hash || '').slice(0, 12)))));
  const heads = ['#'].concat(['when', 'what', 'who', 'from', 'result', 'detail', 'hash'].map((h) => t('page.js.custody.' + h)));
  return el('section', { class: 'card' }, el('h2', {}, t('page.js.custody')), chainState(item.custodyChain),
    el('div', { class: 'scroll' }, el('table', { class: 'custody' },
      el('thead', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, rows))));
}

// The item's place in the server's transparency log, and its receipt to keep beside the proof.
function logSection(item) {
  const log = item.log || {};
  const section = el('section', { class: 'card tlog' }, el('h2', {}, t('page.js.log')));
  if (log.state !== 'included') {
    section.append(el('p', { class: 'hint', role: 'status' }, t('page.js.log.waiting')));
    return section;
  }
  const href = URL.createObjectURL(new Blob([log.receipt], { type: 'text/plain' }));
  const name = item.proofs.length ? item.proofs[0].mediaSha256 + '.tlog' : item.sha256 + '.tlog';
  section.append(el('p', { role: 'status' }, parts('page.js.log.logged', String(log.index),
    el('a', { href, download: name, class: 'receipt' }, t('page.js.log.download')), ltr('code', {}, name),
    ltr('code', {}, 'proofmode verify --log-key KEY'))));
  return section;
}

function keptLine(kept) {
  if (!kept) return null;
  if (kept.permalink) {
    const href = window.location.origin + kept.permalink;
    return el('p', { class: 'result-link' }, parts('page.js.kept.line', when(kept.verifiedAt), ltr('a', { href }, href),
      el('a', { href: '/api/v1/reports/' + (kept.reportId || kept.id) + '/pdf?lang=' + encodeURIComponent(I18n.lang), class: 'report-pdf' }, t('page.js.kept.pdf'))), el('br'),
      el('span', { class: 'hint' }, parts('page.js.kept.until', when(kept.expiresAt))));
  }
  return kept.permalinkRefused ? el('p', { class: 'hint' }, t('page.js.kept.refused', kept.permalinkRefused)) : null;
}

// The stored item's verification report (PDF), fetched with the token and saved; the server logs it in the custody chain.
function reportButton(item) {
  const button = el('button', { type: 'button' }, t('page.js.report.button'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      // the report in the page's language (the server falls back to English for a language it lacks)
      const res = await fetch('/api/v1/evidence/' + item.sha256 + '/report?lang=' + encodeURIComponent(I18n.lang),
        { headers: { Authorization: 'Bearer ' + token() }, credentials: 'omit' });
      if (!res.ok) throw new Error(t('page.js.report.failed', res.status));
      const url = URL.createObjectURL(await res.blob());
      const a = el('a', { href: url, download: item.sha256 + '.report.pdf' });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (e) {
      showError(e.message);
    } finally { button.disabled = false; }
  });
  return el('p', { class: 'report-link' }, button,
    el('span', { class: 'hint' }, ' ' + t('page.js.report.hint')));
}

// A collection (proofmode collect): the page's addresses as text, never as links, and its words escaped.
function captureSection(c, proofs) {
  const verdictOf = (sha) => (proofs.find((p) => p.sha256 === sha) || {}).verdict;
  const rows = [[t('page.js.capture.url'), ltr('code', {}, c.url)], [t('page.js.capture.finalUrl'), ltr('code', {}, c.finalUrl)],
    [t('page.js.capture.collected'), when(c.collected)]];
  if (c.title !== undefined) rows.push([t('page.js.capture.pageTitle'), el('bdi', { id: 'capture-title' }, c.title)]);
  if (c.tls) rows.push([t('page.js.capture.tlsSubject'), ltr('span', {}, c.tls.subject)], [t('page.js.capture.tlsIssuer'), ltr('span', {}, c.tls.issuer)]);
  if (c.purpose) rows.push([t('page.js.capture.purpose'), el('bdi', {}, c.purpose)]);
  const media = c.media.map((m) => {
    const verdict = verdictOf(m.sha256);
    return el('li', {}, parts('page.js.capture.mediaFrom', ltr('code', {}, m.file), ltr('code', {}, m.uri),
      el('span', { 'data-verdict': verdict || 'UNPROVED' }, verdict ? verdictWords(verdict)[0] : t('page.js.capture.noProof'))));
  });
  return el('section', { class: 'card', id: 'capture' }, el('h2', {}, t('page.js.capture.title')), table(rows, t('page.js.capture.caption')),
    media.length ? el('ul', {}, media) : el('p', {}, t('page.js.capture.noMedia')));
}

function render(report, item, kept) {
  const r = $('result');
  r.replaceChildren();
  r.append(el('h2', {}, parts('page.js.resultFor', el('bdi', {}, el('code', {}, report.source)))));
  r.append(verdictBox(report.verdict, undefined, uncheckedOf(report), withoutMedia(report)));
  const line = keptLine(kept);
  if (line) r.append(line);
  if (item) r.append(reportButton(item));
  if (report.collection) r.append(captureSection(report.collection, report.proofs));
  if (report.checks.length) r.append(el('section', { class: 'card' }, el('h2', {}, t('page.js.bundle')), checkList(report.checks)));
  for (const p of report.proofs) r.append(proofSection(p, item, kept));
  if (item) r.append(logSection(item), custody(item));
  present(r.firstChild);
  const [word, explain] = verdictWords(report.verdict);
  announce(t('page.js.announce.result', word, explain));
}

// How two items relate (MediaComparison.Relation), in plain words.
const RELATIONS = ['SAME_BYTES', 'SAME_CONTENT', 'EXCERPT', 'SIMILAR', 'DIFFERENT', 'UNCOMPARABLE', 'PROOF_INVALID'];
function relationWords(relation) {
  return RELATIONS.includes(relation) ? [t('page.js.relation.' + relation), t('page.js.relation.' + relation + '.said')] : [relation, ''];
}

async function compare(event) {
  event.preventDefault();
  const a = $('compare-a').files[0];
  const b = $('compare-b').files[0];
  if (!a || !b) { showError(t('page.js.compare.needTwo')); return; }
  if (!token()) { $('token-box').open = true; showError(t('page.js.compare.needToken')); return; }
  const form = new FormData();
  form.append('a', a, a.name);
  form.append('b', b, b.name);
  $('compare').disabled = true;
  $('result').setAttribute('aria-busy', 'true');
  announce(t('page.js.comparing'));
  try {
    renderComparison(await call('POST', '/api/v1/compare', form, true));
  } catch (e) {
    showError(e.message);
  } finally {
    $('compare').disabled = false;
    $('result').setAttribute('aria-busy', 'false');
  }
}

function renderComparison(doc) {
  const r = $('result');
  const [word, explain] = relationWords(doc.relation);
  // The verdict boxes' colours: green for the same content, amber for similar, red for different.
  const style = { SAME_BYTES: 'TRUSTED', SAME_CONTENT: 'TRUSTED', EXCERPT: 'TRUSTED', SIMILAR: 'VALID', UNCOMPARABLE: 'VALID' }[doc.relation] || 'INVALID';
  r.replaceChildren(el('h2', {}, t('page.js.comparison')),
    el('div', { class: 'verdict v-' + style, role: 'status' },
      el('p', { class: 'word', 'data-relation': doc.relation }, word), el('p', {}, explain)),
    el('section', { class: 'card' }, el('h2', {}, t('page.js.sides')),
      el('ul', {}, doc.sides.map((s) => el('li', {}, el('bdi', {}, el('code', {}, s.name)), ': ',
        s.kind === 'proof' ? t('page.js.side.proof', verdictWords(s.verdict)[0]) : t('page.js.side.media'),
        s.sha256 ? ltr('span', { class: 'code' }, 'SHA-256 ' + s.sha256) : null)))),
    el('section', { class: 'card' }, el('h2', {}, t('page.js.checks')), checkList(doc.checks),
      doc.notes.length ? el('ul', { class: 'hint' }, doc.notes.map((n) => el('li', {}, el('bdi', {}, n)))) : null));
  present(r.firstChild);
  announce(t('page.js.announce.comparison', word, explain));
}

function choose(files) {
  lastFiles = Array.from(files || []);
  busy(false);
}

document.addEventListener('DOMContentLoaded', () => {
  $('token').value = token();
  $('token').addEventListener('input', (e) => { sessionStorage.setItem('proofmode.token', e.target.value.trim()); busy(false); });
  $('files').addEventListener('change', (e) => choose(e.target.files));
  $('upload').addEventListener('submit', check);
  $('compare-form').addEventListener('submit', compare);
  $('keep').addEventListener('click', keep);
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    $('files').files = e.dataTransfer.files;
    choose(e.dataTransfer.files);
  });
  window.addEventListener('hashchange', route);
  busy(false);
  route();
});
