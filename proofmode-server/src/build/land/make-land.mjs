// SPDX-License-Identifier: Apache-2.0
// Writes the page's offline world map: Natural Earth 1:110m land (public domain, via world-atlas, ISC),
// projected equirectangular into hundredths of a degree (x = (lon + 180) * 100, y = (90 - lat) * 100) as one
// SVG path with relative integer steps. Run once after `npm ci` here; the output is committed.
// Usage: node make-land.mjs ../../../../proofmode-core/src/main/resources/org/proofmode/report/land/land-110m.json
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';

const SCALE = 100;
const out = process.argv[2];
if (!out) {
  console.error('usage: node make-land.mjs OUT.json');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const topology = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8'));
const land = feature(topology, topology.objects.land);
const polygons = land.features.flatMap((f) => (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates));

// Rings that cross the antimeridian (Russia, Fiji, Antarctica's seam) are unwrapped so that they stay
// continuous, then drawn once more shifted by a full turn to fill the other edge of the map; a ring around a
// pole is closed along it.
function ringPath(xy) {
  let s = 'M' + xy[0][0] + ' ' + xy[0][1] + 'l';
  for (let i = 1; i < xy.length; i++) {
    const dx = xy[i][0] - xy[i - 1][0];
    const dy = xy[i][1] - xy[i - 1][1];
    s += (i > 1 && dx >= 0 ? ' ' : '') + dx + (dy >= 0 ? ' ' : '') + dy;
  }
  return s + 'z';
}

const parts = [];
let points = 0;
for (const polygon of polygons) {
  for (const ring of polygon) {
    const xy = [];
    let shift = 0;
    for (const [lon, lat] of ring) {
      const p = [Math.round((lon + 180) * SCALE), Math.round((90 - lat) * SCALE)];
      const last = xy[xy.length - 1];
      if (last && Math.abs(p[0] + shift - last[0]) > 180 * SCALE) shift += p[0] + shift > last[0] ? -360 * SCALE : 360 * SCALE;
      p[0] += shift;
      if (!last || last[0] !== p[0] || last[1] !== p[1]) xy.push(p);
    }
    if (xy.length < 4) continue;
    // A ring that goes once around a pole (Antarctica) ends a full turn from where it began: close it along the pole.
    const first = xy[0];
    const end = xy[xy.length - 1];
    if (Math.abs(end[0] - first[0]) >= 180 * SCALE) {
      const pole = first[1] > 90 * SCALE ? 180 * SCALE : 0;
      xy.push([end[0], pole], [first[0], pole]);
    }
    parts.push(ringPath(xy));
    points += xy.length;
    const minX = Math.min(...xy.map((p) => p[0]));
    const maxX = Math.max(...xy.map((p) => p[0]));
    if (minX < 0) parts.push(ringPath(xy.map(([x, y]) => [x + 360 * SCALE, y])));
    if (maxX > 360 * SCALE) parts.push(ringPath(xy.map(([x, y]) => [x - 360 * SCALE, y])));
  }
}
const doc = {
  source: 'Natural Earth 1:110m land, version 4.1.0 (naturalearthdata.com), via the npm package world-atlas 2.0.2',
  licence: 'Natural Earth data is in the public domain; world-atlas is ISC-licensed (Copyright 2013-2019 Michael Bostock)',
  projection: 'equirectangular in hundredths of a degree: x = (longitude + 180) * 100, y = (90 - latitude) * 100; viewBox 0 0 36000 18000',
  rings: parts.length,
  points,
  d: parts.join(''),
};
writeFileSync(out, JSON.stringify(doc) + '\n');
console.log(`${parts.length} rings, ${points} points, ${JSON.stringify(doc).length} bytes`);
