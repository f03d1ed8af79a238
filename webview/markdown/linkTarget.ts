/**
 * Which link targets in agent Markdown may be clicked (links.ts makes the
 * element). Only web pages (http, https) and files (absolute or relative
 * paths, local `file:` URLs) are links; anything else (`javascript:`,
 * `data:`, `vbscript:`, `file://other-host/`, custom schemes,
 * protocol-relative `//host`) is shown as plain text.
 */

/** What the WHATWG URL parser ignores, so that `java\tscript:` is judged as the `javascript:` it is. */
const ignoredInUrl = /[\t\n\r]/g;
const controls = /[\u0000-\u001f\u007f]/;
const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const windowsDrive = /^[a-zA-Z]:[\\/]/;

/**
 * The target to send to the host for a link destination (entities already
 * decoded), or undefined when it must not be clickable.
 */
export function safeLinkTarget(destination: string): string | undefined {
  const href = withoutEdgeControls(destination.replace(ignoredInUrl, ''));
  if (href === '' || href.length > 8_192 || controls.test(href)) return undefined;
  if (windowsDrive.test(href)) return href;
  const match = scheme.exec(href);
  if (match) return safeUrl(href, match[1]!.toLowerCase());
  // Network paths (`//host/x`, `\\host\x`) are URLs in disguise.
  if (/^[\\/]{2}/.test(href)) return undefined;
  // A bare fragment or query points into the webview itself.
  if (href.startsWith('#') || href.startsWith('?')) return undefined;
  // RFC 3986: a relative path's first segment has no colon (else it would read as a scheme),
  // which also refuses look-alike schemes such as `ｊavascript:`.
  if (/^[^/\\?#]*:/.test(href)) return undefined;
  return href;
}

/**
 * `text` without C0 controls and spaces at either end, as the URL parser strips them. By index: the pattern
 * `[\u0000-\u0020]+$` is tried from each character of a run of spaces to its end (quadratic on a run of them).
 */
function withoutEdgeControls(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

function safeUrl(href: string, protocol: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if ((protocol === 'http' || protocol === 'https') && url.hostname !== '') return url.href;
  if (protocol === 'file' && (url.hostname === '' || url.hostname === 'localhost')) return url.href;
  return undefined;
}
