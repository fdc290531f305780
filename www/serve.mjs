// A tiny static server for www/dist on 127.0.0.1 (node:http only).
//
//   node serve.mjs      serves on PORT (default 8080), or the next free port after it, and prints the URL
//
// Only files inside dist/ are served; everything is sent with no-cache headers so a rebuild shows at once.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

function handler(root) {
  return async (req, res) => {
    const send = (code, body, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      return send(400, 'bad request\n');
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return send(403, 'forbidden\n');
    try {
      const s = await stat(file);
      if (!s.isFile()) return send(404, 'not found\n');
      return send(200, await readFile(file), TYPES[extname(file)] ?? 'application/octet-stream');
    } catch {
      return send(404, 'not found\n');
    }
  };
}

/**
 * Serves `root` on `host`: from `port` on, the first free one (`tries` of them); port 0 lets the system choose.
 * Resolves to {server, url}.
 */
export async function serve({ root = join(here, 'dist'), host = '127.0.0.1', port = 8080, tries = 50 } = {}) {
  const server = createServer(handler(normalize(root)));
  for (let i = 0; ; i++) {
    const p = port === 0 ? 0 : port + i;
    try {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(p, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      break;
    } catch (e) {
      if (e.code !== 'EADDRINUSE' || port === 0 || i + 1 >= tries) throw e;
    }
  }
  const { port: bound } = server.address();
  return { server, url: `http://${host}:${bound}/` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const raw = process.env.PORT ?? '8080';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number (0-65535), got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  const { url } = await serve({ port });
  console.log(`llm-preflight page: ${url}`);
  console.log('Ctrl-C to stop.');
}
