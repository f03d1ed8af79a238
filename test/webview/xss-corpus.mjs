/**
 * Hostile text an agent could send. Every payload, if it ever ran, would set
 * `window.xssFlag`, log `XSS-MARKER`, open a dialog or fetch a `/beacon/`
 * URL (same-origin beacons are allowed by the CSP, so only the renderer
 * stands between them and a request).
 *
 * `visible`: what must be readable in the rendered Markdown (assistant,
 * thought and tool text); user text is shown verbatim, so there the whole
 * payload must be visible. Defaults to the payload itself: raw HTML is shown
 * as the text it is.
 */

/** @param {string} origin the page's origin, for same-origin beacons */
export function xssCorpus(origin) {
  const js = (n) => `window.xssFlag=${n};console.log('XSS-MARKER');alert(${n})`;
  const beacon = (n, ext = 'png') => `${origin}/beacon/${n}.${ext}`;
  const payloads = [
    // Script elements
    { name: 'script tag', text: `<script>${js(1)}</script>` },
    { name: 'script src', text: `<SCRIPT SRC=${beacon(2, 'js')}></SCRIPT>` },
    { name: 'script inside a paragraph', text: `Text before <script>\n${js(3)}\n</script> after` },
    { name: 'split script tag', text: `<scr<script>ipt>${js(4)}</scr</script>ipt>` },
    // Event handler attributes
    { name: 'img onerror', text: `<img src=x onerror="${js(5)}">` },
    { name: 'body onload', text: `<body onload=window.xssFlag=6>` },
    { name: 'div onmouseover', text: `<div onmouseover="${js(7)}">hover me</div>` },
    { name: 'input autofocus onfocus', text: `<input autofocus onfocus=window.xssFlag=8>` },
    { name: 'details ontoggle', text: `<details open ontoggle=window.xssFlag=9>` },
    { name: 'raw a onclick', text: `<a href="#" onclick="${js(10)}">click</a>` },
    {
      name: 'link title breaking out into an attribute',
      text: `[x](https://e.example "\\" onmouseover=\\"window.xssFlag=11")`,
      visible: ['x'],
    },
    // javascript: in every Markdown link form
    { name: 'inline link', text: `[click12](javascript:${js(12)})`, visible: ['click12'] },
    { name: 'inline link in angle brackets', text: `[click13](<javascript:window.xssFlag=13>)`, visible: ['click13'] },
    { name: 'reference link', text: `[click14][r14]\n\n[r14]: javascript:window.xssFlag=14`, visible: ['click14'] },
    {
      name: 'shortcut reference link',
      text: `[r15] here\n\n[r15]: javascript:window.xssFlag=15`,
      visible: ['r15 here'],
    },
    { name: 'autolink', text: `<javascript:window.xssFlag=16>`, visible: ['javascript:window.xssFlag=16'] },
    { name: 'raw HTML a href', text: `<a href="javascript:${js(17)}">raw a</a>` },
    { name: 'mixed-case scheme', text: `[x18](JaVaScRiPt:window.xssFlag=18)`, visible: ['x18'] },
    {
      name: 'control character before the scheme',
      text: `[x19](\u0001javascript:window.xssFlag=19)`,
      visible: ['x19'],
    },
    { name: 'tab inside the scheme (entity)', text: `[x20](java&#x09;script:window.xssFlag=20)`, visible: ['x20'] },
    {
      name: 'newline inside the scheme (named entity)',
      text: `[x21](java&NewLine;script:window.xssFlag=21)`,
      visible: ['x21'],
    },
    {
      name: 'scheme spelled in decimal entities',
      text: `[x22](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;window.xssFlag=22)`,
      visible: ['x22'],
    },
    { name: 'entities without semicolons', text: `[x23](&#x6A&#x61vascript:window.xssFlag=23)`, visible: ['x23'] },
    { name: '&colon; entity', text: `[x24](javascript&colon;window.xssFlag=24)`, visible: ['x24'] },
    { name: 'fullwidth homoglyph scheme', text: `[x25](\uff4aavascript:window.xssFlag=25)`, visible: ['x25'] },
    { name: 'escaped-unicode scheme', text: `[x26](\\u006Aavascript:window.xssFlag=26)`, visible: ['x26'] },
    {
      name: 'data: HTML link',
      text: `[x27](data:text/html;base64,PHNjcmlwdD53aW5kb3cueHNzRmxhZz0yNzwvc2NyaXB0Pg==)`,
      visible: ['x27'],
    },
    { name: 'vbscript: link', text: `[x28](vbscript:msgbox(28))`, visible: ['x28'] },
    { name: 'file: URL on another host', text: `[x29](file://evil.example/share/x)`, visible: ['x29'] },
    {
      name: 'javascript: as bare text',
      text: `Visit javascript:window.xssFlag=30 now`,
      visible: ['Visit javascript:window.xssFlag=30 now'],
    },
    // SVG and MathML
    { name: 'svg onload and script', text: `<svg onload="window.xssFlag=31"><script>${js(31)}</script></svg>` },
    {
      name: 'svg a xlink:href',
      text: `<svg><a xlink:href="javascript:window.xssFlag=32"><text x="0" y="15">svg link</text></a></svg>`,
    },
    { name: 'svg animate onbegin', text: `<svg><animate onbegin=window.xssFlag=33 attributeName=x dur=1s>` },
    {
      name: 'svg data: image',
      text: `![svg34](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMzQpPg==)`,
      visible: ['svg34'],
    },
    { name: 'math xlink:href', text: `<math><mi xlink:href="javascript:window.xssFlag=35">math</mi></math>` },
    // Frames, objects, embeds
    { name: 'iframe javascript:', text: `<iframe src="javascript:${js(36)}"></iframe>` },
    { name: 'iframe srcdoc', text: `<iframe srcdoc="<script>parent.xssFlag=37</script>"></iframe>` },
    { name: 'object data', text: `<object data="${beacon(38, 'swf')}"></object>` },
    { name: 'embed src', text: `<embed src="${beacon(39, 'swf')}">` },
    // Forms
    { name: 'form action', text: `<form action="javascript:window.xssFlag=40"><button>submit</button></form>` },
    { name: 'button formaction', text: `<button formaction="javascript:window.xssFlag=41">go</button>` },
    // Document-level tricks
    { name: 'meta refresh', text: `<meta http-equiv="refresh" content="0;url=javascript:window.xssFlag=42">` },
    { name: 'base href', text: `<base href="javascript:window.xssFlag=43//">` },
    { name: 'link stylesheet', text: `<link rel="stylesheet" href="${beacon(44, 'css')}">` },
    // CSS
    { name: 'style attribute url()', text: `<div style="background:url(${beacon(45)})">styled</div>` },
    { name: 'style @import', text: `<style>@import url("${beacon(46, 'css')}");</style>` },
    { name: 'style expression()', text: `<div style="width: expression(window.xssFlag=47)">ie</div>` },
    { name: 'style element url()', text: `<style>body{background:url("${beacon(48)}")}</style>` },
    // Image beacons
    { name: 'Markdown image, same origin', text: `![beacon49](${beacon(49)})`, visible: ['beacon49'] },
    {
      name: 'Markdown image, remote, with title',
      text: `![beacon50](https://evil.example/beacon/50.png "t")`,
      visible: ['beacon50'],
    },
    { name: 'raw img', text: `<img src="${beacon(51)}">` },
    { name: 'raw img srcset', text: `<img srcset="${beacon(52)} 1x">` },
    { name: 'picture source', text: `<picture><source srcset="${beacon(53)}"></picture>` },
    { name: 'video poster', text: `<video poster="${beacon(54)}"></video>` },
    { name: 'reference image', text: `![ref55][i55]\n\n[i55]: ${beacon(55)}`, visible: ['ref55'] },
    {
      name: 'image in a javascript: link',
      text: `[![img56](${beacon(56)})](javascript:window.xssFlag=56)`,
      visible: ['img56'],
    },
    // Entities and backticks
    {
      name: 'entity-encoded script',
      text: `&lt;script&gt;${js(57)}&lt;/script&gt;`,
      visible: [`<script>${js(57)}</script>`],
    },
    { name: 'script in a code span', text: `\`<script>${js(58)}</script>\``, visible: [`<script>${js(58)}</script>`] },
    {
      name: 'script in a fenced code block',
      text: `\`\`\`html\n<script>${js(59)}</script>\n\`\`\``,
      visible: [`<script>${js(59)}</script>`],
    },
    {
      name: 'unbalanced backticks',
      text: `\`\`<img src=x onerror=window.xssFlag=60>\``,
      visible: ['<img src=x onerror=window.xssFlag=60>'],
    },
    // The backticks make a code span: the parts are all visible, the backticks are syntax.
    {
      name: 'backtick attribute quote',
      text: '<img src=`x`onerror=window.xssFlag=61>',
      visible: ['<img src=', 'onerror=window.xssFlag=61>'],
    },
    // Nested brackets
    {
      name: 'nested link brackets',
      text: `[[nested62](javascript:window.xssFlag=62)](https://ok.example)`,
      visible: ['nested62'],
    },
    {
      name: 'link followed by a javascript: group',
      text: `[ok63](https://ok.example)(javascript:window.xssFlag=63)`,
      visible: ['ok63', '(javascript:window.xssFlag=63)'],
    },
    { name: 'javascript: link with a title', text: `[x64](javascript:window.xssFlag=64 "title")`, visible: ['x64'] },
    { name: 'javascript: image', text: `![x65](javascript:window.xssFlag=65)`, visible: ['x65'] },
    // Template and marker confusion
    {
      name: 'template syntax',
      text: "${alert(66)} {{constructor.constructor('window.xssFlag=66')()}}",
      visible: ["${alert(66)} {{constructor.constructor('window.xssFlag=66')()}}"],
    },
    { name: 'Lit marker look-alikes', text: '<!--?lit$1234$--> lit$1234$ <?lit$5678$>' },
    // Parser confusion
    { name: 'comment break-out', text: `<!--><img src=x onerror=window.xssFlag=68>-->` },
    {
      name: 'noscript title break-out',
      text: `<noscript><p title="</noscript><img src=x onerror=window.xssFlag=69>">`,
    },
    { name: 'custom element onclick', text: `<x onclick=window.xssFlag=70>custom` },
    { name: 'marquee onstart', text: `<marquee onstart=window.xssFlag=71>` },
    // Payloads inside Markdown structures
    {
      name: 'in a table',
      text: `| <img src=x onerror=window.xssFlag=72> |\n|---|\n| [t72](javascript:window.xssFlag=72) |`,
      visible: ['<img src=x onerror=window.xssFlag=72>', 't72'],
    },
    { name: 'in a heading', text: `# <script>${js(73)}</script>`, visible: [`<script>${js(73)}</script>`] },
    {
      name: 'in a task list',
      text: `- [ ] <img src=x onerror=window.xssFlag=74>`,
      visible: ['<img src=x onerror=window.xssFlag=74>'],
    },
    {
      name: 'in a blockquote',
      text: `> <iframe src="${beacon(75, 'html')}"></iframe>`,
      visible: [`<iframe src="${beacon(75, 'html')}"></iframe>`],
    },
  ];
  return payloads.map((p, i) => ({ ...p, id: `xss-${i + 1}`, visible: p.visible ?? [p.text] }));
}
