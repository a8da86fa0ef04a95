// SPDX-License-Identifier: Apache-2.0
// Usage: node validate.mjs FILE MEDIA-TYPE [ANCHORS.pem]
//        node validate.mjs --batch LIST [ANCHORS.pem]
// LIST is a text file with one file a line: MEDIA-TYPE, a tab, FILE. The batch form loads the validator once and prints
// one JSON line per file, in the list's order, each with "file" set to the FILE of its line; a file the
// validator could not read gets {"file":FILE,"failed":message} and the run goes on.
// Prints one JSON line: {"state":"Valid|Invalid|Trusted|none","failure":[codes],"success":[codes],
// "informational":[codes],"active":label,"ingredients":[{"relationship","title","instance_id"}],
// "manifests":[{"manifest":label,"code":code}],"labels":[label]}. "labels" are the labels of every manifest of the store. "ingredients" are the active manifest's ingredients;
// "failure" is the active manifest's failures as the reference rolls them up; "manifests" is every failure
// of the whole store (the active manifest's and every ingredient manifest's, from validation_results),
// each with the label of the manifest its URI points into (the label itself when the URI is a bare label,
// as for ingredient.manifest.missing). "none" means the file holds no manifest store.
// A store the reference refuses to read because it names no known hash algorithm (c2pa-rs error
// UnknownAlgorithm) is printed as state "Invalid" with the code algorithm.unsupported (manifest ""), the
// code c2pa-rs's own tests expect for such a file, and "error":"UnknownAlgorithm".
// Exit 0 when the validator ran (whatever its verdict), 2 when it could not (single file) or the list
// could not be read (batch).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initSync, WasmReader } from '@contentauth/c2pa-wasm';

const require = createRequire(import.meta.url);
initSync({ module: readFileSync(require.resolve('@contentauth/c2pa-wasm/c2pa.wasm')) });

const args = process.argv.slice(2);
const batch = args[0] === '--batch';
const [file, mediaType, anchors] = batch ? [args[1], undefined, args[2]] : args;
if (!file || (!batch && !mediaType)) {
  console.error('usage: node validate.mjs FILE MEDIA-TYPE [ANCHORS.pem] | --batch LIST [ANCHORS.pem]');
  process.exit(2);
}
const context = anchors
  ? JSON.stringify({ trust: { trust_anchors: readFileSync(anchors, 'utf8') } })
  : undefined;
const codes = (list) => (list || []).map((s) => s.code);
const PREFIX = 'self#jumbf=/c2pa/';
const manifestOf = (url) => {
  const u = String(url || '');
  if (u.startsWith(PREFIX)) {
    return u.substring(PREFIX.length).split('/')[0];
  }
  return u.startsWith('self#jumbf=') || u.includes('/') ? '' : u;
};
const perManifest = (results) => {
  const seen = new Set();
  const out = [];
  const addAll = (list) => (list || []).forEach((s) => {
    const entry = { manifest: manifestOf(s.url), code: s.code };
    const key = entry.manifest + '\u0000' + entry.code;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(entry);
    }
  });
  addAll((results.activeManifest || {}).failure);
  (results.ingredientDeltas || []).forEach((d) => addAll((d.validationDeltas || {}).failure));
  return out;
};
// The result for one file; throws when the validator could not read it for another reason.
const validate = async (path, type) => {
  try {
    const reader = await WasmReader.fromBytes(type, readFileSync(path), context);
    const store = JSON.parse(reader.json());
    const results = (store.validation_results && store.validation_results.activeManifest) || {};
    const active = (store.manifests && store.manifests[store.active_manifest]) || {};
    const ingredients = (active.ingredients || []).map((i) => ({
      relationship: i.relationship || '',
      title: i.title || '',
      instance_id: i.instance_id || '',
    }));
    return {
      state: store.validation_state,
      active: store.active_manifest || '',
      failure: codes(results.failure),
      success: codes(results.success),
      informational: codes(results.informational),
      ingredients,
      manifests: perManifest(store.validation_results || {}),
      labels: Object.keys(store.manifests || {}),
    };
  } catch (e) {
    if (String(e).includes('JumbfNotFound')) {
      return { state: 'none', active: '', failure: [], success: [], informational: [], ingredients: [], manifests: [] };
    }
    if (String(e).includes('UnknownAlgorithm')) {
      return {
        state: 'Invalid', active: '', failure: ['algorithm.unsupported'], success: [], informational: [], ingredients: [],
        manifests: [{ manifest: '', code: 'algorithm.unsupported' }], error: 'UnknownAlgorithm',
      };
    }
    throw e;
  }
};
if (batch) {
  let list;
  try {
    list = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
  } catch (e) {
    console.error('c2pa validator: cannot read the list: ' + String(e));
    process.exit(2);
  }
  for (const line of list) {
    const tab = line.indexOf('\t');
    const type = tab < 0 ? '' : line.substring(0, tab);
    const path = tab < 0 ? line : line.substring(tab + 1);
    try {
      if (!type) {
        throw new Error('no media type on the line');
      }
      console.log(JSON.stringify({ file: path, ...(await validate(path, type)) }));
    } catch (e) {
      console.log(JSON.stringify({ file: path, failed: String(e) }));
    }
  }
} else {
  try {
    console.log(JSON.stringify(await validate(file, mediaType)));
  } catch (e) {
    console.error('c2pa validator: ' + String(e));
    process.exit(2);
  }
}
