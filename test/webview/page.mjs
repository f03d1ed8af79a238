/**
 * The test page: the chat webview's HTML as the extension makes it, plus what
 * VS Code itself adds to every webview (theme variables, default styles) and
 * the harness's recorder.
 *
 * The HTML comes from the real `chatHtml` in src/views/chatWebview.ts
 * (test/harness/chatHtml.mjs), so the page has exactly the production CSP.
 */
import { chatPageHtml } from '../harness/chatHtml.mjs';
import { THEMES, themeCss } from './themes.mjs';

/** The page's URL path for dist/webview: not the root, as in VS Code, so relative asset URLs are exercised. */
export const ASSET_PREFIX = '/webview/';

/**
 * The page for `origin`: `{ html, source }`, source saying where the
 * extension's part came from (always 'chatViewProvider').
 */
export async function chatPage(origin, theme) {
  const assetUrl = (file) => `${origin}${ASSET_PREFIX}${file}`;
  const html = await chatPageHtml(origin, assetUrl);
  const nonce = /'nonce-([^']+)'/.exec(html)?.[1];
  if (!nonce) throw new Error('the chat page has no script nonce');
  return { html: withVsCodeParts(html, nonce, theme), source: 'chatViewProvider' };
}

/** VS Code's own additions, placed right after the CSP (so that they are under it) and before the page's styles. */
function withVsCodeParts(html, nonce, theme) {
  const parts = `
<style nonce="${nonce}" id="acp-theme">${themeCss(theme)}</style>
<style nonce="${nonce}" id="_defaultStyles">${VSCODE_DEFAULT_STYLES}</style>
<script nonce="${nonce}">${RECORDER}</script>`;
  const afterCsp = html.replace(/(<meta http-equiv="Content-Security-Policy"[^>]*>)/, `$1${parts}`);
  if (afterCsp === html) throw new Error('the chat page has no CSP meta element');
  const kind = THEMES[theme].kind;
  return afterCsp.replace(/<body([^>]*)>/, `<body$1 class="${kind}" data-vscode-theme-kind="${kind}">`);
}

/** The default styles VS Code gives every webview (trimmed to what affects layout and colour). */
const VSCODE_DEFAULT_STYLES = `
html { background-color: var(--vscode-sideBar-background); scrollbar-color: var(--vscode-scrollbarSlider-background) var(--vscode-editor-background); }
body { background-color: transparent; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
a, a code { color: var(--vscode-textLink-foreground); }
code { font-family: var(--vscode-editor-font-family); color: var(--vscode-textPreformat-foreground); }
`;

/** Runs before the bundle: keeps what the page posts and which loads the CSP refused. */
const RECORDER = `(() => {
  const r = window.__acpHarness = { posted: [], violations: [] };
  window.addEventListener('acp-webview-message', (e) => r.posted.push(JSON.parse(JSON.stringify(e.detail))));
  document.addEventListener('securitypolicyviolation', (e) => r.violations.push({ directive: e.effectiveDirective, blockedURI: e.blockedURI, sample: e.sample }));
})();`;
