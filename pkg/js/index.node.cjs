// Node (require): the wasm-bindgen nodejs build, loaded synchronously from the package's files.
'use strict';
const { makeApi } = require('../dist/api.cjs');
module.exports = makeApi(require('../dist/node/llm_preflight_wasm.js'));
