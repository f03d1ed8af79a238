/**
 * The extension's own chat page: `chatHtml(webview, root)` from
 * src/views/chatWebview.ts, bundled on the fly with a stand-in `vscode`
 * module, so that test and bench pages have exactly the production markup
 * and CSP.
 */
import * as path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from './paths.mjs';

let loaded;

/** Resolves to chatHtml(webview, root); loaded once. */
export async function loadChatHtml() {
  if (loaded) return loaded;
  const stub = {
    name: 'vscode-stub',
    setup(b) {
      b.onResolve({ filter: /^vscode$/ }, () => ({ path: 'vscode', namespace: 'stub' }));
      b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
        contents: 'export const Uri = { joinPath: (base, ...parts) => ({ path: [base.path, ...parts].join("/") }) };',
        loader: 'js',
      }));
    },
  };
  const out = await build({
    entryPoints: [path.join(REPO_ROOT, 'src/views/chatWebview.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    mainFields: ['module', 'main'],
    plugins: [stub],
  });
  const module = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
  if (typeof module.chatHtml !== 'function') {
    throw new Error('src/views/chatWebview.ts no longer exports chatHtml(webview, root)');
  }
  loaded = module.chatHtml;
  return loaded;
}

/** The page for a server at `origin` that serves the webview's files at `assetUrl(name)`. */
export async function chatPageHtml(origin, assetUrl) {
  const chatHtml = await loadChatHtml();
  const webview = {
    cspSource: origin,
    asWebviewUri: (uri) => ({ toString: () => assetUrl(uri.path.split('/').pop()) }),
  };
  return chatHtml(webview, { path: '/dist/webview' });
}
