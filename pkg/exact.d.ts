// llm-preflight/exact: exact OpenAI token counts. Build with `npm run build -- --exact`.
/** Node: synchronous. Browsers, bundlers, Deno: returns a Promise (the module is fetched on first use). */
export function count(text: string, profile?: 'o200k' | 'cl100k'): number | Promise<number>;
/** Browsers: start loading the module early (optional). */
export function load(input?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<unknown>;
