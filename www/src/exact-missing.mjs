// Stands in for `llm-preflight/exact` when the package was built without the exact counters (in pkg/:
// `npm run build -- --exact`). The page then says so instead of failing.
const missing = () => new Error('this build of the page has no exact counter (the package was built without it)');

export async function load() {
  throw missing();
}

export async function count() {
  throw missing();
}
