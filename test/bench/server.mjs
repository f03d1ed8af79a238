/**
 * Serves the chat webview the way the extension does: the page from
 * ChatViewProvider's chatHtml (same CSP, same nonce rule, same markup) and
 * the webview's files, from 127.0.0.1. The page origin stands in for
 * `webview.cspSource`.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths.mjs';

const PROVIDER = path.join(REPO_ROOT, 'src', 'chat', 'chatViewProvider.ts');

/**
 * chatHtml's CSP lines and template, verbatim from src/chat/chatViewProvider.ts
 * with `${x}` written `{{x}}`; {@link cspDrift} compares them with the source.
 */
const CSP_LINES = [
  `"default-src 'none'"`,
  "`script-src 'nonce-{{nonce}}'`",
  "`style-src {{webview.cspSource}} 'nonce-{{nonce}}'`",
  "`font-src {{webview.cspSource}}`",
  "`img-src {{webview.cspSource}}`",
];
const TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="{{csp}}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>ACP Chat</title>
<style nonce="{{nonce}}">
  /* Declared in the document: @font-face does not work from inside a shadow root. */
  @font-face { font-family: "codicon"; font-display: block; src: url("{{codiconFont.toString()}}") format("truetype"); }
  body { margin: 0; padding: 0; }
</style>
</head>
<body>
<acp-chat-app></acp-chat-app>
<script nonce="{{nonce}}" src="{{script.toString()}}"></script>
</body>
</html>`;

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
<meta http-equiv="Content-Security-Policy" content="{{csp}}">
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

const fill = (text, values) => text.replace(/\{\{([^}]+)\}\}/g, (_, name) => {
  if (!(name in values)) throw new Error(`bench page: no value for {{${name}}}`);
  return values[name];
});

/** The page chatHtml makes (or the no-op page), with this server's origin as `webview.cspSource`. */
function chatHtml(nonce, origin, template = TEMPLATE) {
  const values = { nonce, 'webview.cspSource': origin, 'script.toString()': `${origin}/webview.js`, 'codiconFont.toString()': `${origin}/codicon.ttf` };
  const csp = CSP_LINES.map((line) => fill(line.slice(1, -1), values)).join('; ');
  return fill(template, { ...values, csp });
}

/**
 * A warning when chatHtml's CSP or markup no longer matches this copy (the
 * provider is being worked on), so that the figures are not quietly taken on
 * a different page; undefined when they match.
 */
export function cspDrift() {
  const source = fs.readFileSync(PROVIDER, 'utf8').replace(/\$\{([^}]+)\}/g, '{{$1}}');
  const lines = /const csp = \[([\s\S]*?)\]\.join/.exec(source)?.[1].split('\n').map((l) => l.trim().replace(/,$/, '')).filter(Boolean);
  const template = /return `(<!DOCTYPE html>[\s\S]*?<\/html>)`/.exec(source)?.[1];
  if (lines?.join('\n') !== CSP_LINES.join('\n') || template !== TEMPLATE) {
    return 'chatHtml in src/chat/chatViewProvider.ts differs from the copy in test/bench/server.mjs: the page may not be the extension\'s; update the copy.';
  }
  return undefined;
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.woff2': 'font/woff2', '.svg': 'image/svg+xml' };

function handle(req, res, origin, root) {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === '/' || url.pathname === '/noop') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    return res.end(chatHtml(randomBytes(16).toString('hex'), origin, url.pathname === '/' ? TEMPLATE : NOOP_TEMPLATE));
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
      resolve({ url: `${origin}/`, noopUrl: `${origin}/noop`, close: () => new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }) });
    });
  });
}
