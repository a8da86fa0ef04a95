// SPDX-License-Identifier: Apache-2.0
// The verification page: plain DOM, no outside code. Every value from a report is set as text, never as HTML.
'use strict';

const WORDS = {
  TRUSTED: ['Trusted', 'The signed files (proof records and media) are unchanged since they were signed, by a key this server trusts.'],
  VALID: ['Intact — signer not confirmed', 'The signed files (proof records and media) are unchanged since they were signed, but the '
    + 'signing key is not one this server trusts. Compare its fingerprint with the one the sender gave you.'],
  INCOMPLETE: ['Not checked', 'Nothing failed, but its content credentials bind the content in a way this server cannot check: '
    + 'nothing shows that the content is unchanged. Do not rely on it until another tool has checked it.'],
  INVALID: ['Not valid', 'Something does not match: a file was changed, or a signature is bad or missing. Do not rely on this proof.'],
};
// Checks naming files the verdict does not speak for (CheckCodes: bundle.entry.*, bundle.file.unchecked, media.missing).
const UNCHECKED_CODES = ['bundle.entry.unproved', 'bundle.entry.unknown', 'bundle.file.unchecked', 'media.missing'];
const STATUS_WORDS = { PASS: 'Pass', WARN: 'Warning', FAIL: 'Fail', INFO: 'Note' };

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

function token() { return sessionStorage.getItem('proofmode.token') || ''; }

function busy(on) {
  $('result').setAttribute('aria-busy', on ? 'true' : 'false');
  if (on) announce('Checking…');
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
    el('p', { class: 'word' }, 'Could not check'), el('p', { class: 'detail' }, message)));
  present(r.querySelector('.word'));
}

async function check(event) {
  event.preventDefault();
  if (lastFiles.length === 0) { showError('Choose a bundle or its files first.'); return; }
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
    showError('This permalink shows stored evidence: enter an evidence token, then reload.');
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
  const [word, said] = WORDS[verdict] || [verdict, ''];
  // A bundle without its media (proof only): the verdict speaks for the proof records alone.
  const explain = noMedia ? said.replace('(proof records and media)', '(proof records)') + ' The media was not in the bundle.' : said;
  return el('div', { class: 'verdict v-' + verdict, role: 'status' },
    el('p', { class: 'word', 'data-verdict': verdict }, heading ? heading + ': ' + word : word),
    el('p', {}, explain),
    unchecked && unchecked.length ? el('p', { class: 'unchecked' }, 'Not checked, so this verdict does not cover them: '
      + unchecked.join(', ')) : null);
}

function uncheckedOf(report) {
  const all = report.checks.concat(...report.proofs.map((p) => p.checks));
  const names = all.filter((c) => UNCHECKED_CODES.includes(c.code) && !(c.code === 'media.missing' && withoutMedia(report)))
    .map((c) => (c.code === 'media.missing' ? 'the media of proof ' + c.subject : c.subject));
  return [...new Set(names)];
}

// Whether no proof of the report had its media (a proof-only bundle).
function withoutMedia(report) {
  return report.proofs.length > 0 && report.proofs.every((p) => p.checks.some((c) => c.code === 'media.missing'));
}

function checkList(checks) {
  return el('ul', { class: 'checks' }, checks.map((c) => el('li', {},
    el('span', { class: 'badge s-' + c.status }, STATUS_WORDS[c.status] || c.status),
    el('span', {}, c.message, el('span', { class: 'code' }, c.code + ' — ' + c.subject)))));
}

function table(rows, caption) {
  return el('table', {}, el('caption', { class: 'hint' }, caption),
    el('tbody', {}, rows.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v)))));
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
    rel: 'noopener noreferrer', target: '_blank' }, 'Open in OpenStreetMap (leaves this page)');
  const accuracy = parseFloat(record['Location.Accuracy']);
  return el('div', { class: 'place' }, el('span', { class: 'k' }, 'Location'),
    context.location || (lat + ', ' + lon + (isFinite(accuracy) ? ' ±' + accuracy + ' m' : '')), ProofMap.views(lat, lon, accuracy), link);
}

function proofSection(p, item, kept) {
  const ctx = p.context || {};
  const section = el('section', { class: 'card', id: 'proof-' + p.id, 'aria-labelledby': 'h-' + p.id });
  section.append(el('h2', { id: 'h-' + p.id }, 'Proof of ', el('code', {}, p.media || p.id)));
  section.append(verdictBox(p.verdict, 'This proof'));
  const signer = p.signer ? el('span', {}, el('code', { class: 'fingerprint' }, grouped(p.signer.fingerprint)), el('br'),
    p.signer.trusted ? 'Trusted key' : 'Not a trusted key', ' · ', p.signer.algorithm, p.signer.userId ? ' · ' + p.signer.userId : '') : 'No valid signature';
  section.append(el('div', { class: 'facts' },
    fact('Signer', signer),
    fact('Captured', ctx.captureTime),
    fact('Proof made', p.times && p.times['Proof Generated']),
    fact('Device', ctx.device),
    fact('Camera', ctx.camera),
    fact('Media SHA-256', p.sha256 ? el('code', {}, p.sha256) : null),
    placeFact(p.record || {}, ctx)));
  if (item) {
    const href = window.location.origin + '/#/evidence/' + item.sha256 + '/' + encodeURIComponent(p.id);
    section.append(el('p', { class: 'permalink' }, 'Permalink: ', el('a', { href }, href)));
  } else if (!kept || !kept.permalink) {
    section.append(el('p', { class: 'permalink hint' }, 'Keep a link to this result, or keep it as evidence, to get a permalink.'));
  }
  const stamps = p.checks.filter((c) => c.code.startsWith('timestamp.'));
  section.append(el('h3', {}, 'Checks'), checkList(p.checks.filter((c) => !c.code.startsWith('timestamp.'))));
  section.append(el('h3', {}, 'Timestamps'), stamps.length ? checkList(stamps) : el('p', { class: 'hint' }, 'No RFC 3161 or OpenTimestamps proof in this bundle.'));
  if (p.times && Object.keys(p.times).length) section.append(table(Object.entries(p.times), 'Times recorded, in UTC'));
  section.append(el('h3', {}, 'Metadata'), table(Object.entries(p.record || {}), 'Every field of the signed proof record'));
  return section;
}

function chainState(chain) {
  if (!chain) return null;
  if (chain.intact) {
    return el('p', { class: 'chain chain-ok', role: 'status' }, 'Custody log intact: ' + chain.length + ' entries, head ',
      el('code', {}, chain.head), '.');
  }
  return el('p', { class: 'chain chain-broken', role: 'alert' }, 'Warning: the custody log has been altered. ',
    chain.brokenAt < chain.length ? 'First bad line: ' + (chain.brokenAt + 1) + '. ' : '', chain.problem || '');
}

function custody(item) {
  const chain = item.custodyChain || {};
  const rows = item.custody.map((c, i) => el('tr', { class: !chain.intact && i === chain.brokenAt ? 'bad-line' : null },
    el('td', {}, String(i + 1)), el('td', {}, c.at), el('td', {}, c.action), el('td', {}, c.actor),
    el('td', {}, c.remote), el('td', {}, c.verdict || ''), el('td', {}, c.detail), el('td', {}, el('code', { title: c.hash }, (c.hash || '').slice(0, 12)))));
  return el('section', { class: 'card' }, el('h2', {}, 'Chain of custody'), chainState(item.custodyChain),
    el('div', { class: 'scroll' }, el('table', { class: 'custody' },
      el('thead', {}, el('tr', {}, ['#', 'When', 'What', 'Who', 'From', 'Result', 'Detail', 'Hash'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, rows))));
}

// The item's place in the server's transparency log, and its receipt to keep beside the proof.
function logSection(item) {
  const log = item.log || {};
  const section = el('section', { class: 'card tlog' }, el('h2', {}, 'Transparency log'));
  if (log.state !== 'included') {
    section.append(el('p', { class: 'hint', role: 'status' }, 'Waiting for the next signed checkpoint of this server\'s '
      + 'transparency log (within seconds): reload the page for the receipt.'));
    return section;
  }
  const href = URL.createObjectURL(new Blob([log.receipt], { type: 'text/plain' }));
  const name = item.proofs.length ? item.proofs[0].mediaSha256 + '.tlog' : item.sha256 + '.tlog';
  section.append(el('p', { role: 'status' }, 'Logged as entry ' + log.index + ' of this server\'s public transparency log. ',
    el('a', { href, download: name, class: 'receipt' }, 'Download the receipt'), ' and keep it beside the proof as ',
    el('code', {}, name), ': anyone with the log\'s key can check it offline (proofmode verify --log-key KEY).'));
  return section;
}

function keptLine(kept) {
  if (!kept) return null;
  if (kept.permalink) {
    const href = window.location.origin + kept.permalink;
    return el('p', { class: 'result-link' }, 'Verified by this server at ', el('time', { datetime: kept.verifiedAt }, kept.verifiedAt),
      '. Link to this result: ', el('a', { href }, href),
      ' (', el('a', { href: '/api/v1/reports/' + (kept.reportId || kept.id) + '/pdf', class: 'report-pdf' }, 'as a document, PDF'), ')', el('br'),
      el('span', { class: 'hint' }, 'Anyone with the link can see this report (not the files) until ' + kept.expiresAt + '.'));
  }
  return kept.permalinkRefused ? el('p', { class: 'hint' }, 'No link was kept: ' + kept.permalinkRefused) : null;
}

// The stored item's verification report (PDF), fetched with the token and saved; the server logs it in the custody chain.
function reportButton(item) {
  const button = el('button', { type: 'button' }, 'Download the verification report (PDF)');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const res = await fetch('/api/v1/evidence/' + item.sha256 + '/report',
        { headers: { Authorization: 'Bearer ' + token() }, credentials: 'omit' });
      if (!res.ok) throw new Error('the report could not be made (' + res.status + ')');
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
    el('span', { class: 'hint' }, ' A document for people who do not use a terminal; the download is recorded in the chain of custody.'));
}

// A collection (proofmode collect): the page's addresses as text, never as links, and its words escaped.
function captureSection(c, proofs) {
  const verdictOf = (sha) => (proofs.find((p) => p.sha256 === sha) || {}).verdict;
  const rows = [['Address asked for', el('code', {}, c.url)], ['Page from (after redirects)', el('code', {}, c.finalUrl)],
    ['Collected', c.collected]];
  if (c.title !== undefined) rows.push(['Page title', el('span', { id: 'capture-title' }, c.title)]);
  if (c.tls) rows.push(['TLS subject', c.tls.subject], ['TLS issuer', c.tls.issuer]);
  if (c.purpose) rows.push(['Purpose', c.purpose]);
  const media = c.media.map((m) => el('li', {}, el('code', {}, m.file), ' from ', el('code', {}, m.uri), ': ',
    el('span', { 'data-verdict': verdictOf(m.sha256) || 'UNPROVED' }, (WORDS[verdictOf(m.sha256)] || ['no proof sent'])[0])));
  return el('section', { class: 'card', id: 'capture' }, el('h2', {}, 'The capture'), table(rows, 'The collected page'),
    media.length ? el('ul', {}, media) : el('p', {}, 'No media kept.'));
}

function render(report, item, kept) {
  const r = $('result');
  r.replaceChildren();
  r.append(el('h2', {}, 'Result for ', el('code', {}, report.source)));
  r.append(verdictBox(report.verdict, undefined, uncheckedOf(report), withoutMedia(report)));
  const line = keptLine(kept);
  if (line) r.append(line);
  if (item) r.append(reportButton(item));
  if (report.collection) r.append(captureSection(report.collection, report.proofs));
  if (report.checks.length) r.append(el('section', { class: 'card' }, el('h2', {}, 'The bundle'), checkList(report.checks)));
  for (const p of report.proofs) r.append(proofSection(p, item, kept));
  if (item) r.append(logSection(item), custody(item));
  present(r.firstChild);
  const [word, explain] = WORDS[report.verdict] || [report.verdict, ''];
  announce('Result: ' + word + '. ' + explain);
}

// How two items relate (MediaComparison.Relation), in plain words.
const RELATIONS = {
  SAME_BYTES: ['The same file', 'Both are exactly the same bytes.'],
  SAME_CONTENT: ['The same content', 'Other bytes, but the same decoded video frames, audio samples or image pixels: '
    + 'another container, or other metadata.'],
  EXCERPT: ['An excerpt', 'One is a contiguous run of the other\'s video frames, with its sound at those times where both '
    + 'have sound: the checks say which frames, at what times.'],
  SIMILAR: ['Perceptually close, not the same', 'Other pixels or frames, but perceptually close: probably the same picture '
    + 'or video re-encoded, resized, cut or lightly edited. Nothing shows what was changed.'],
  DIFFERENT: ['Different', 'Nothing shows that these are the same content: other content, frames spliced or reordered, '
    + 'or an excerpt with other sound (the checks say what differs).'],
  UNCOMPARABLE: ['Uncomparable', 'Other bytes, and nothing both have shows how they relate.'],
  PROOF_INVALID: ['A proof is invalid', 'A proof does not verify, so what it records says nothing about the media.'],
};

async function compare(event) {
  event.preventDefault();
  const a = $('compare-a').files[0];
  const b = $('compare-b').files[0];
  if (!a || !b) { showError('Choose two items to compare.'); return; }
  if (!token()) { $('token-box').open = true; showError('Comparing needs an evidence token: enter it below the upload form.'); return; }
  const form = new FormData();
  form.append('a', a, a.name);
  form.append('b', b, b.name);
  $('compare').disabled = true;
  $('result').setAttribute('aria-busy', 'true');
  announce('Comparing…');
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
  const [word, explain] = RELATIONS[doc.relation] || [doc.relation, ''];
  // The verdict boxes' colours: green for the same content, amber for similar, red for different.
  const style = { SAME_BYTES: 'TRUSTED', SAME_CONTENT: 'TRUSTED', EXCERPT: 'TRUSTED', SIMILAR: 'VALID', UNCOMPARABLE: 'VALID' }[doc.relation] || 'INVALID';
  r.replaceChildren(el('h2', {}, 'Comparison'),
    el('div', { class: 'verdict v-' + style, role: 'status' },
      el('p', { class: 'word', 'data-relation': doc.relation }, word), el('p', {}, explain)),
    el('section', { class: 'card' }, el('h2', {}, 'The two items'),
      el('ul', {}, doc.sides.map((s) => el('li', {}, el('code', {}, s.name), ': ',
        s.kind === 'proof' ? 'a proof (' + ((WORDS[s.verdict] || [s.verdict])[0]) + ')' : 'a media file',
        s.sha256 ? el('span', { class: 'code' }, 'SHA-256 ' + s.sha256) : null)))),
    el('section', { class: 'card' }, el('h2', {}, 'Checks'), checkList(doc.checks),
      doc.notes.length ? el('ul', { class: 'hint' }, doc.notes.map((n) => el('li', {}, n))) : null));
  present(r.firstChild);
  announce('Comparison: ' + word + '. ' + explain);
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
