/**
 * Serves the chat webview the way the extension does: the page from
 * ChatViewProvider's own chatHtml (same CSP, same nonce rule, same markup)
 * and the webview's files, from 127.0.0.1. The page origin stands in for
 * `webview.cspSource`.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { chatPageHtml } from '../harness/chatHtml.mjs';

/**
 * The floor of what the bench can measure: a page under the same CSP whose
 * <acp-chat-app> does almost nothing per message (it counts them in one text
 * node, so that a message still changes the DOM and is painted). Its latency
 * is the display's frame wait plus the browser's least work per frame.
 */
const NOOP_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
{{cspMeta}}
<title>No-op page</title>
</head>
<body>
<acp-chat-app></acp-chat-app>
<script nonce="{{nonce}}">
  customElements.define('acp-chat-app', class extends HTMLElement {
    connectedCallback() {
      const count = document.createTextNode('0');
      this.attachShadow({ mode: 'open' }).append(document.createElement('p'));
      this.shadowRoot.firstChild.append(count);
      let n = 0;
      window.addEventListener('message', (e) => { if (e.data?.type === 'entries') count.data = String(++n); });
    }
  });
</script>
</body>
</html>`;

/**
 * The extension's page (chatHtml, with this server's origin as
 * `webview.cspSource`), or the no-op page under the same CSP and nonce.
 */
async function page(origin, noop) {
  const html = await chatPageHtml(origin, (file) => `${origin}/${file}`);
  if (!noop) return html;
  const cspMeta = /<meta http-equiv="Content-Security-Policy"[^>]*>/.exec(html)?.[0];
  const nonce = /'nonce-([^']+)'/.exec(html)?.[1];
  if (!cspMeta || !nonce) throw new Error('chatHtml made a page without a CSP or a nonce');
  return NOOP_TEMPLATE.replace('{{cspMeta}}', cspMeta).replace('{{nonce}}', nonce);
}

const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
};

function handle(req, res, origin, root) {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === '/' || url.pathname === '/noop') {
    page(origin, url.pathname === '/noop').then(
      (html) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(html);
      },
      (error) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      },
    );
    return;
  }
  if (url.pathname === '/favicon.ico') {
    // Chromium asks for one; a webview does not.
    res.writeHead(204);
    return res.end();
  }
  const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)));
  if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

/**
 * Serves the page and the files in `root` (a copy of dist/webview) on a free
 * port; resolves to `{ url, noopUrl, close }`.
 */
export function startServer(root) {
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => handle(req, res, origin, root));
    let origin = '';
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${server.address().port}`;
      resolve({
        url: `${origin}/`,
        noopUrl: `${origin}/noop`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
