/**
 * HTML character references in Markdown text, decoded to the characters they
 * stand for. marked leaves named references (`&copy;`) and `&amp;` in its
 * tokens for an HTML renderer to resolve; we render text nodes, so we resolve
 * them here. Only a common subset of the ~2,000 named references is known:
 * an unknown one stays visible as typed, which is harmless.
 */

const named: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0',
  // Punctuation a URL or scheme can be spelled with: decoded so that link checks see what a browser would.
  colon: ':', sol: '/', bsol: '\\', lpar: '(', rpar: ')', period: '.', comma: ',', semi: ';',
  excl: '!', quest: '?', num: '#', percnt: '%', equals: '=', plus: '+', lowbar: '_', hyphen: '\u2010',
  Tab: '\t', NewLine: '\n', lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', verbar: '|', grave: '`', Hat: '^', ast: '*', commat: '@', dollar: '$',
  copy: '\u00a9', reg: '\u00ae', trade: '\u2122', deg: '\u00b0', plusmn: '\u00b1', times: '\u00d7', divide: '\u00f7',
  middot: '\u00b7', bull: '\u2022', hellip: '\u2026', ndash: '\u2013', mdash: '\u2014', shy: '\u00ad',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', laquo: '\u00ab', raquo: '\u00bb', sbquo: '\u201a', bdquo: '\u201e',
  larr: '\u2190', rarr: '\u2192', uarr: '\u2191', darr: '\u2193', harr: '\u2194', lArr: '\u21d0', rArr: '\u21d2', hArr: '\u21d4',
  le: '\u2264', ge: '\u2265', ne: '\u2260', asymp: '\u2248', equiv: '\u2261', infin: '\u221e', minus: '\u2212', sum: '\u2211', prod: '\u220f', radic: '\u221a',
  para: '\u00b6', sect: '\u00a7', dagger: '\u2020', Dagger: '\u2021', permil: '\u2030', prime: '\u2032', Prime: '\u2033',
  euro: '\u20ac', pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', curren: '\u00a4',
  frac12: '\u00bd', frac14: '\u00bc', frac34: '\u00be', sup2: '\u00b2', sup3: '\u00b3', micro: '\u00b5',
  alpha: '\u03b1', beta: '\u03b2', gamma: '\u03b3', delta: '\u03b4', lambda: '\u03bb', mu: '\u03bc', pi: '\u03c0', sigma: '\u03c3', omega: '\u03c9', Delta: '\u0394', Omega: '\u03a9',
  check: '\u2713', cross: '\u2717', hearts: '\u2665', star: '\u2606', starf: '\u2605',
  zwj: '\u200d', zwnj: '\u200c', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  auml: '\u00e4', ouml: '\u00f6', uuml: '\u00fc', Auml: '\u00c4', Ouml: '\u00d6', Uuml: '\u00dc', szlig: '\u00df',
  eacute: '\u00e9', egrave: '\u00e8', aacute: '\u00e1', agrave: '\u00e0', ccedil: '\u00e7', ntilde: '\u00f1', oacute: '\u00f3', iacute: '\u00ed', uacute: '\u00fa',
};

const reference = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/** `&amp;` -> `&`, `&#60;` -> `<`, `&copy;` -> `©`; invalid code points become U+FFFD, as in HTML. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(reference, (match, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return Object.hasOwn(named, name) ? named[name]! : match;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    const invalid = code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
    return invalid ? '\ufffd' : String.fromCodePoint(code);
  });
}
