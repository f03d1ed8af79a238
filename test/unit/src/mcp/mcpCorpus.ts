/**
 * A generated corpus of hostile MCP configs: `.vscode/mcp.json` files (as
 * bytes) and `vscode-acp.mcpServers` values. Every name, key and value a
 * project controls carries CANARY, which no problem text may contain.
 */
export type CorpusCase =
  | { readonly label: string; readonly kind: 'file'; readonly bytes: Uint8Array }
  | { readonly label: string; readonly kind: 'setting'; readonly value: unknown };

const utf8 = (text: string) => new TextEncoder().encode(text);
type Server = Record<string, unknown>;

const base = (): Server => ({ command: '/usr/bin/CANARYcmd', args: ['CANARYarg'], env: { CANARY_K: 'CANARYval' } });
const remote = (type: string, url: string, headers: Record<string, unknown> = { 'X-CANARY': 'CANARYhdr' }): Server => ({
  type,
  url,
  headers,
});

/** Server mutations, each in VS Code's mcp.json shape (maps); settings get ACP's shape from them. */
function serverMutations(): [string, unknown][] {
  const m: [string, unknown][] = [];
  const withProp = (k: string, v: unknown): Server => ({ ...base(), [k]: v });
  for (const c of [
    'CANARYnode',
    './CANARY',
    '../CANARY',
    'bin/CANARY',
    '~/CANARY',
    '',
    ' ',
    '\\\\CANARYhost\\share\\x.exe',
    '//CANARYhost/x',
    'C:\\CANARY\\x.bat',
    'C:\\CANARY\\x.cmd',
    'C:\\CANARY\\x.ps1',
    'C:CANARY.exe',
    '/bin/${workspaceFolder}/CANARY',
    '/bin/${env:CANARY}',
    '${env:CANARY}',
    '\u0000/CANARY',
    'x'.repeat(17_000) + 'CANARY',
  ]) {
    m.push([`command ${JSON.stringify(c.slice(0, 30))}`, withProp('command', c)]);
  }
  for (const a of [
    ['${env:CANARY}'],
    ['${input:CANARY}'],
    [1, 'CANARY'],
    'CANARY',
    { CANARY: 1 },
    [null],
    Array(257).fill('CANARY'),
    Array(100_000).fill('CANARY'),
    [['CANARY']],
  ]) {
    m.push([`args ${JSON.stringify(a).slice(0, 30)}`, withProp('args', a)]);
  }
  for (const e of [
    ['CANARY'],
    'CANARY',
    { 'CANARY-K': 'v' },
    { '1CANARY': 'v' },
    { 'CANARY K': 'v' },
    { CANARY_K: 5 },
    { CANARY_K: null },
    { CANARY_K: { v: 'CANARY' } },
    { CANARY_K: '${input:CANARY}' },
    { CANARY_K: '${env:CANARY' },
    { CANARY_K: '${env:}' },
    { CANARY_K: '${env:1CANARY}' },
    { CANARY_K: '${env:CANARY_UNSET_1}' },
    { CANARY_K: '${CANARY}' },
    { CANARY_K: 'a\u0000CANARY' },
    Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`CANARY_${i}`, 'v'])),
    JSON.parse('{"__proto__":{"CANARY":1}}'),
  ]) {
    m.push([`env ${JSON.stringify(e).slice(0, 30)}`, withProp('env', e)]);
  }
  for (const p of [
    'envFile',
    'cwd',
    'oauth',
    'dev',
    'sandboxEnabled',
    'sandbox',
    'gallery',
    'version',
    'CANARYprop',
    '__proto__',
    'constructor',
    'prototype',
  ]) {
    m.push([`unsupported property ${p}`, withProp(p, 'CANARY')]);
  }
  for (const t of ['ws', 'websocket', 'STDIO', 'Http', 5, null, true, ['http'], 'CANARY']) {
    m.push([`type ${JSON.stringify(t)}`, withProp('type', t)]);
  }
  for (const u of [
    'http://CANARY.example/mcp',
    'ftp://CANARY.example',
    'https://CANARY:pw@x.example',
    'https://CANARY@x.example',
    'https://x.example/CANARY#frag',
    'javascript:CANARY',
    'CANARY not a url',
    '/CANARY',
    'https://x.example/${env:CANARY}',
    'file:///CANARY',
    'data:text/plain,CANARY',
    'ws://CANARY.example',
    '',
    'https://' + 'x'.repeat(17_000),
  ]) {
    m.push([`http url ${u.slice(0, 30)}`, remote('http', u)]);
    m.push([`sse url ${u.slice(0, 30)}`, remote('sse', u)]);
  }
  for (const h of [
    { 'CANARY H': 'v' },
    { 'CANARY:H': 'v' },
    { CANARY: 'a\r\nX-Injected: CANARY' },
    { CANARY: 'a\nCANARY' },
    { CANARY: 7 },
    { CANARY: '${env:CANARY_UNSET_2}' },
    { CANARY: '${input:CANARY}' },
    ['CANARY'],
    'CANARY',
  ]) {
    m.push([
      `headers ${JSON.stringify(h).slice(0, 30)}`,
      remote('http', 'https://ok.example/mcp', h as Record<string, unknown>),
    ]);
  }
  for (const s of ['CANARY', 5, null, ['CANARY'], true]) m.push([`server ${JSON.stringify(s)}`, s]);
  m.push(['stdio without command', { args: ['CANARY'] }]);
  m.push(['http without url', { type: 'http', headers: { CANARY: 'v' } }]);
  m.push(['stdio with url', { ...base(), url: 'https://CANARY.example' }]);
  m.push(['http with command', { ...remote('http', 'https://ok.example'), command: '/bin/CANARY' }]);
  return m;
}

/** A server name that is itself hostile (shown nowhere but the report). */
const NAMES = [
  '',
  'C'.repeat(101) + 'CANARY',
  'CANARY\u0007bell',
  'CANARY\u202Eevil',
  'CANARY\u200Bzw',
  'CANARY\nline',
  'CANARY\u0000nul',
];

function toSetting(name: string, server: unknown): unknown {
  if (typeof server !== 'object' || server === null || Array.isArray(server)) return server;
  const s: Server = { ...(server as Server), name };
  for (const field of ['env', 'headers']) {
    const map = (server as Server)[field];
    if (map && typeof map === 'object' && !Array.isArray(map)) {
      s[field] = Object.entries(map).map(([k, v]) => ({ name: k, value: v }));
    }
  }
  return s;
}

const file = (label: string, text: string): CorpusCase => ({ label, kind: 'file', bytes: utf8(text) });
const fileOf = (servers: Record<string, unknown>) => JSON.stringify({ servers });

export function hostileCorpus(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const [label, server] of serverMutations()) {
    cases.push(file(`mcp.json: ${label}`, fileOf({ CANARYserver: server })));
    // The same with comments, trailing commas and a byte order mark around it.
    cases.push({
      label: `mcp.json (BOM, comments): ${label}`,
      kind: 'file',
      bytes: new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...utf8(`// CANARY comment\n{ "servers": { "CANARYserver": ${JSON.stringify(server)}, }, /* CANARY */ }`),
      ]),
    });
    cases.push({ label: `setting: ${label}`, kind: 'setting', value: [toSetting('CANARYserver', server)] });
  }
  for (const name of NAMES) {
    cases.push(file(`mcp.json: name ${JSON.stringify(name.slice(0, 20))}`, fileOf({ [name]: base() })));
    cases.push({
      label: `setting: name ${JSON.stringify(name.slice(0, 20))}`,
      kind: 'setting',
      value: [toSetting(name, base())],
    });
  }
  // Encodings.
  const good = utf8(fileOf({ CANARYserver: base() }));
  cases.push({
    label: 'UTF-16 LE with BOM',
    kind: 'file',
    bytes: new Uint8Array([0xff, 0xfe, ...[...fileOf({ CANARY: base() })].flatMap((ch) => [ch.charCodeAt(0), 0])]),
  });
  cases.push({
    label: 'UTF-16 BE with BOM',
    kind: 'file',
    bytes: new Uint8Array([0xfe, 0xff, ...[...fileOf({ CANARY: base() })].flatMap((ch) => [0, ch.charCodeAt(0)])]),
  });
  for (const bad of [
    [0xc3, 0x28],
    [0xa0, 0xa1],
    [0xe2, 0x28, 0xa1],
    [0xf0, 0x28, 0x8c, 0xbc],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xff],
    [0xfe],
    [0x80],
  ]) {
    for (const at of [1, Math.floor(good.length / 2), good.length - 2]) {
      cases.push({
        label: `bad UTF-8 ${bad.map((b) => b.toString(16)).join(' ')} at ${at}`,
        kind: 'file',
        bytes: new Uint8Array([...good.slice(0, at), ...bad, ...good.slice(at)]),
      });
    }
  }
  // Nesting.
  for (const depth of [17, 18, 64, 1_000, 100_000]) {
    cases.push(
      file(
        `arrays ${depth} deep`,
        `{"servers":{"CANARY":{"command":"/a","args":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
      ),
    );
    cases.push(
      file(`objects ${depth} deep`, `{"servers":{"CANARY":${'{"CANARY":'.repeat(depth)}1${'}'.repeat(depth)}}}`),
    );
    cases.push(file(`unclosed ${depth} deep`, '['.repeat(depth)));
    let nested: unknown = 'CANARY';
    for (let i = 0; i < Math.min(depth, 5_000); i++) nested = [nested];
    cases.push({
      label: `setting ${depth} deep`,
      kind: 'setting',
      value: [{ name: 'CANARY', command: '/a', args: nested }],
    });
  }
  // Size.
  cases.push(file('257 KiB', fileOf({ CANARY: { ...base(), args: ['CANARY'.repeat(Math.ceil((257 * 1024) / 6))] } })));
  cases.push(file('10 MiB', `{"servers":{"CANARY":{"command":"/a","args":["${'CANARY'.repeat(1_800_000)}"]}}}`));
  cases.push(
    file('65 servers', fileOf(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`CANARY${i}`, base()])))),
  );
  cases.push(
    file(
      '10,000 servers',
      fileOf(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`CANARY${i}`, base()]))),
    ),
  );
  cases.push({
    label: 'setting: 65 servers',
    kind: 'setting',
    value: Array.from({ length: 65 }, (_, i) => toSetting(`CANARY${i}`, base())),
  });
  cases.push({
    label: 'setting: 100,000 servers',
    kind: 'setting',
    value: Array.from({ length: 100_000 }, () => 'CANARY'),
  });
  // Duplicates at every level.
  const dup = [
    '{"servers":{"CANARY":{"command":"/a"}},"servers":{"CANARY":{"command":"/b"}}}',
    '{"servers":{"CANARY":{"command":"/a"},"CANARY":{"command":"/b"}}}',
    '{"servers":{"CANARY":{"command":"/a","command":"/b"}}}',
    '{"servers":{"CANARY":{"command":"/a","env":{"CANARY_K":"1","CANARY_K":"2"}}}}',
    '{"servers":{"CANARY":{"type":"http","url":"https://a","headers":{"CANARY":"1","CANARY":"2"}}}}',
    '{"servers":{"CANARY":{"command":"/a","args":[{"CANARY":1,"CANARY":2}]}}}',
    '{"inputs":[],"inputs":[],"servers":{}}',
    '{"servers":{"CANARY":{"command":"/a"},"canary":{"command":"/b"}}}',
    '{"servers":{"__proto__":{"command":"/a"},"__proto__":{"command":"/b"}}}',
  ];
  dup.forEach((text, i) => cases.push(file(`duplicate ${i}`, text)));
  cases.push({
    label: 'setting: two names differing in case',
    kind: 'setting',
    value: [toSetting('CANARY', base()), toSetting('canary', base())],
  });
  // Sections.
  for (const section of [
    '"inputs":[{"id":"CANARY","type":"promptString"}]',
    '"sandbox":{"CANARY":1}',
    '"CANARY":{}',
    '"$schema":"CANARY"',
    '"mcp":{"servers":{}}',
    '"servers":[{"CANARY":1}]',
    '"servers":"CANARY"',
    '"servers":null',
    '"inputs":"CANARY"',
  ]) {
    cases.push(
      file(
        `section ${section.slice(0, 20)}`,
        `{${section}${section.startsWith('"servers"') ? '' : ',"servers":{"CANARY":{"command":"/a"}}'}}`,
      ),
    );
  }
  // Syntax.
  for (const text of [
    '',
    ' ',
    '// CANARY only a comment',
    'null',
    '[]',
    '"CANARY"',
    '1e999',
    'true',
    '{"servers":{"CANARY":{"command":"/a"}}',
    '{"servers":{}} CANARY',
    "{'servers':{}}",
    '{servers:{}}',
    '{"servers":{"CANARY":{"command":NaN}}}',
    '{"servers":{"CANARY":{"command":"/a\\q"}}}',
    '{"servers":{"CANARY":{"command":"/a\u0001"}}}',
    '{"servers":{"CANARY":{"command":"\\ud800"}}}',
    '/* CANARY',
    '{"servers":{,}}',
    '{"servers":{"CANARY":}}',
    '\u0000',
  ]) {
    cases.push(file(`syntax ${JSON.stringify(text.slice(0, 20))}`, text));
  }
  // Settings that are not lists.
  for (const value of [
    'CANARY',
    5,
    null,
    { CANARY: base() },
    [[]],
    [null],
    [JSON.parse('{"__proto__":{"CANARY":1},"name":"CANARY","command":"/a"}')],
  ]) {
    cases.push({ label: `setting ${JSON.stringify(value).slice(0, 30)}`, kind: 'setting', value });
  }
  return cases;
}
