// Node (require): the wasm-bindgen nodejs builds, loaded synchronously from the package's files; the lazy module
// only when first needed.
'use strict';
const { makeApi } = require('../dist/api.cjs');
module.exports = makeApi(require('../dist/node/llm_preflight_wasm.js'), () => require('../dist/lazy-node/llm_preflight_wasm.js'));
