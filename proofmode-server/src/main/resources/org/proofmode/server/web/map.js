// SPDX-License-Identifier: Apache-2.0
// The page's offline map: Natural Earth 1:110m land (land-110m.json, see NOTICE-land.txt) drawn as inline SVG,
// equirectangular, with the recorded position marked, its accuracy circle when it is large enough to see, and a
// close-up around it. No outside requests: the land comes from this server. Geography is never mirrored; in a
// right-to-left page the close-up's scale sits in its right corner, where such a page's reader starts.
'use strict';

const ProofMap = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const M_PER_DEG = 111320; // metres per degree of latitude (and of longitude at the equator)
  let land = null;

  function node(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The land outline, fetched once: { d } in hundredths of a degree, x = (lon + 180) * 100, y = (90 - lat) * 100.
  function landPath() {
    if (!land) {
      land = fetch('/land-110m.json', { credentials: 'omit' }).then((r) => {
        if (!r.ok) throw new Error('land-110m.json: ' + r.status);
        return r.json();
      });
    }
    return land;
  }

  function drawLand(group, copies) {
    landPath().then((doc) => {
      for (const dx of copies) {
        group.append(node('path', { class: 'land', d: doc.d, transform: dx ? 'translate(' + dx + ' 0)' : '' }));
      }
    }).catch((e) => group.append(node('text', { x: 0, y: 0, class: 'map-error' }, I18n.t('page.js.map.unavailable', e.message))));
  }

  function round(v) { return Math.round(v * 1000) / 1000; }

  // The whole world, 360 x 180 units of one degree, with the position and a box around the close-up.
  function world(lat, lon, accuracy, halfSpan) {
    const label = accuracy ? I18n.t('page.js.map.worldAccuracy', lat, lon, accuracy) : I18n.t('page.js.map.world', lat, lon);
    const s = node('svg', { viewBox: '0 0 360 180', class: 'map world', role: 'img', 'aria-label': label });
    s.append(node('title', {}, label));
    const g = node('g', { transform: 'scale(0.01)' });
    s.append(g);
    drawLand(g, [0]);
    for (let x = 30; x < 360; x += 30) s.append(node('line', { class: 'grid', x1: x, y1: 0, x2: x, y2: 180 }));
    for (let y = 30; y < 180; y += 30) s.append(node('line', { class: 'grid', x1: 0, y1: y, x2: 360, y2: y }));
    const x = round(lon + 180);
    const y = round(90 - lat);
    const cos = Math.max(Math.cos(lat * Math.PI / 180), 0.01);
    const box = halfSpan / cos;
    s.append(node('rect', { class: 'inset-box', x: round(x - box), y: round(y - halfSpan), width: round(2 * box), height: round(2 * halfSpan) }));
    if (accuracy) {
      const ry = accuracy / M_PER_DEG;
      if (ry >= 0.5) s.append(node('ellipse', { class: 'accuracy', cx: x, cy: y, rx: round(ry / cos), ry: round(ry) }));
    }
    s.append(node('circle', { class: 'marker', cx: x, cy: y, r: 2.5 }));
    return s;
  }

  function niceKm(km) {
    const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000];
    return steps.reduce((best, v) => (Math.abs(v - km) < Math.abs(best - km) ? v : best), steps[0]);
  }

  // A close-up 200 x 200 px around the position, scaled so that a kilometre is as long east-west as north-south.
  function closeUp(lat, lon, accuracy, halfSpan) {
    const k = 100 / halfSpan; // px per degree of latitude
    const cos = Math.max(Math.cos(lat * Math.PI / 180), 0.01);
    const km = round(2 * halfSpan * M_PER_DEG / 1000);
    const label = I18n.t('page.js.map.closeUp', Math.round(km), lat, lon);
    const s = node('svg', { viewBox: '0 0 200 200', class: 'map inset', role: 'img', 'aria-label': label });
    s.append(node('title', {}, label));
    const g = node('g', { transform: 'translate(100 100) scale(' + round(k * cos / 100) + ' ' + round(k / 100) + ') translate('
      + round(-(lon + 180) * 100) + ' ' + round(-(90 - lat) * 100) + ')' });
    s.append(g);
    const reach = halfSpan / cos;
    drawLand(g, [0].concat(lon + reach > 180 ? [36000] : [], lon - reach < -180 ? [-36000] : []));
    s.append(node('line', { class: 'cross', x1: 100, y1: 0, x2: 100, y2: 200 }));
    s.append(node('line', { class: 'cross', x1: 0, y1: 100, x2: 200, y2: 100 }));
    if (accuracy) {
      const r = accuracy / M_PER_DEG * k;
      // Drawn when it reaches beyond the marker (radius 3 px).
      if (r >= 4) s.append(node('circle', { class: 'accuracy', cx: 100, cy: 100, r: round(Math.min(r, 400)) }));
    }
    s.append(node('circle', { class: 'marker', cx: 100, cy: 100, r: 3 }));
    const pxPerKm = k / (M_PER_DEG / 1000);
    const bar = niceKm(50 / pxPerKm);
    const length = round(bar * pxPerKm);
    const start = I18n.rtl ? 190 - length : 10;
    s.append(node('line', { class: 'scale', x1: start, y1: 188, x2: round(start + length), y2: 188 }));
    s.append(node('text', { class: 'scale-label', x: I18n.rtl ? 190 : 10, y: 182, 'text-anchor': 'start',
      direction: I18n.rtl ? 'rtl' : 'ltr' }, I18n.t('page.js.map.km', bar)));
    return s;
  }

  // Both views for a position; accuracy in metres (0 or NaN when unknown).
  function views(lat, lon, accuracy) {
    const acc = isFinite(accuracy) && accuracy > 0 ? accuracy : 0;
    const halfSpan = Math.max(0.5, 3 * acc / M_PER_DEG); // degrees of latitude from the centre to the edge
    const wrap = document.createElement('div');
    wrap.className = 'maps';
    wrap.append(world(lat, lon, acc, halfSpan), closeUp(lat, lon, acc, halfSpan));
    return wrap;
  }

  return { views };
})();
