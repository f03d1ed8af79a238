/** Which browser origins the bridge lets open a WebSocket (the Origin check before any token or agent). */
import * as assert from 'node:assert/strict';
import { originAllowed } from '../../../../src-node/bridge/bridgeServer';

describe('bridge origins', () => {
  // Every origin a browser sends for vscode.dev, github.dev, their webview CDN and a local test-web.
  const allowed = [
    'https://vscode.dev',
    'https://insiders.vscode.dev',
    'https://github.dev',
    'https://abc-123.vscode-cdn.net',
    'http://localhost',
    'http://localhost:3000',
    'http://localhost:65535',
    'http://127.0.0.1',
    'http://127.0.0.1:8080',
  ];
  // For each allowed origin, what an attacker's page can be served from: suffixes, prefixes,
  // ports, userinfo, other schemes, subdomains, case and stray characters.
  const tricks = (origin: string) => {
    const { protocol, host } = new URL(origin);
    const other = protocol === 'https:' ? 'http:' : 'https:';
    return [
      `${origin}.evil.example`,
      `${origin}evil.example`,
      `${origin}x`,
      `${origin}/`,
      `${origin}/path`,
      `${origin}#`,
      `${origin}?`,
      `${origin}@evil.example`,
      `${origin}:80@evil.example`,
      `${protocol}//evil.example@${host}`,
      `${protocol}//user:pass@${host}`,
      `${origin}\n`,
      `${origin}\nhttps://evil.example`,
      ` ${origin}`,
      `${origin} `,
      `${origin}\u0000`,
      `${other}//${host}`,
      `ws://${host}`,
      `x${origin}`,
      `https://evil.example/${origin}`,
      `${protocol}//evil.${host}`,
      `${protocol}//${host.replace(/^[^.:]+/, (label) => `${label}.evil`)}`,
      origin.toUpperCase(),
      host.includes(':') ? `${origin}0000` : `${origin}:123456`,
      `${origin}:`,
      `${origin}:-1`,
    ];
  };

  it('allows the browsers origins of VS Code for the Web and of a local test-web', () => {
    for (const origin of allowed) assert.equal(originAllowed(origin, []), true, origin);
  });

  it('refuses every look-alike of each allowed origin', () => {
    let tried = 0;
    for (const origin of allowed) {
      for (const trick of tricks(origin)) {
        if (allowed.includes(trick)) continue;
        tried++;
        assert.equal(originAllowed(trick, []), false, JSON.stringify(trick));
      }
    }
    assert.ok(tried >= 200, `${tried} look-alikes`);
  });

  it('refuses other vscode.dev and CDN subdomains, and the CDN itself', () => {
    for (const origin of [
      'https://evil.vscode.dev',
      'https://a.b.vscode-cdn.net',
      'https://vscode-cdn.net',
      'https://.vscode-cdn.net',
      'https://insiders.github.dev',
      'null',
      '',
    ]) {
      assert.equal(originAllowed(origin, []), false, origin);
    }
  });

  it('allows an --allow-origin only as given, and no look-alike of it', () => {
    const extra = ['https://my.host:8443'];
    assert.equal(originAllowed('https://my.host:8443', extra), true);
    for (const trick of tricks('https://my.host:8443')) {
      assert.equal(originAllowed(trick, extra), false, JSON.stringify(trick));
    }
    assert.equal(originAllowed('https://my.host:8443', []), false);
  });
});
