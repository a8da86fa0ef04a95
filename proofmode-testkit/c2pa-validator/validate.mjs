// SPDX-License-Identifier: Apache-2.0
// Usage: node validate.mjs FILE MEDIA-TYPE [ANCHORS.pem]
// Prints one JSON line: {"state":"Valid|Invalid|Trusted|none","failure":[codes],"success":[codes],
// "informational":[codes],"active":label,"ingredients":[{"relationship","title","instance_id"}]} (the
// active manifest's ingredients). "none" means the file holds no manifest store.
// Exit 0 when the validator ran (whatever its verdict), 2 when it could not.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initSync, WasmReader } from '@contentauth/c2pa-wasm';

const require = createRequire(import.meta.url);
initSync({ module: readFileSync(require.resolve('@contentauth/c2pa-wasm/c2pa.wasm')) });

const [file, mediaType, anchors] = process.argv.slice(2);
if (!file || !mediaType) {
  console.error('usage: node validate.mjs FILE MEDIA-TYPE [ANCHORS.pem]');
  process.exit(2);
}
const context = anchors
  ? JSON.stringify({ trust: { trust_anchors: readFileSync(anchors, 'utf8') } })
  : undefined;
const codes = (list) => (list || []).map((s) => s.code);
try {
  const reader = await WasmReader.fromBytes(mediaType, readFileSync(file), context);
  const store = JSON.parse(reader.json());
  const results = (store.validation_results && store.validation_results.activeManifest) || {};
  const active = (store.manifests && store.manifests[store.active_manifest]) || {};
  const ingredients = (active.ingredients || []).map((i) => ({
    relationship: i.relationship || '',
    title: i.title || '',
    instance_id: i.instance_id || '',
  }));
  console.log(JSON.stringify({
    state: store.validation_state,
    active: store.active_manifest || '',
    failure: codes(results.failure),
    success: codes(results.success),
    informational: codes(results.informational),
    ingredients,
  }));
} catch (e) {
  if (String(e).includes('JumbfNotFound')) {
    console.log(JSON.stringify({ state: 'none', active: '', failure: [], success: [], informational: [], ingredients: [] }));
  } else {
    console.error('c2pa validator: ' + String(e));
    process.exit(2);
  }
}
