/**
 * Hostile agent text (xss-corpus.mjs) delivered as assistant text (set and
 * streamed), thoughts (opened), user text and tool output (expanded): nothing
 * runs, nothing is fetched, nothing navigates, no element or attribute comes
 * from the payload, and the payload is readable as text.
 */
import * as assert from 'node:assert/strict';
import { allElements, entryTexts, squash } from './dom.mjs';
import { openChatPage } from './harness.mjs';
import { xssCorpus } from './xss-corpus.mjs';

/** Elements and attributes that agent text must never produce. */
const FORBIDDEN_TAGS = new Set([
  'script',
  'iframe',
  'frame',
  'object',
  'embed',
  'form',
  'meta',
  'base',
  'link',
  'style',
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'svg',
  'math',
  'animate',
  'input',
  'marquee',
  'noscript',
  'template',
  'x',
  'body',
  'details-payload',
]);
const FORBIDDEN_ATTRS =
  /^(on.*|style|href|src|srcset|srcdoc|action|formaction|poster|background|xlink:href|http-equiv|data)$/i;
/** What `safeLinkTarget` lets through: web pages and files. */
const SAFE_HREF = /^(https?:\/\/[^/]|file:\/\/\/|file:\/\/localhost\/|[a-zA-Z]:[\\/]|[^:]*$|[^/\\?#:]*[/\\?#])/;

/** Everything that would show that a payload ran, loaded, or became markup. */
async function problems(chat) {
  const found = [];
  await chat.page.waitForTimeout(300); // let any load, error or timer handler fire
  const flags = await chat.page.evaluate(() => [window.xssFlag, window.top.xssFlag, window.parent.xssFlag]);
  if (flags.some((f) => f !== undefined)) found.push(`window.xssFlag was set: ${flags}`);
  const marked = chat.console().filter((m) => m.text.includes('XSS-MARKER'));
  if (marked.length) found.push(`console marker: ${JSON.stringify(marked)}`);
  if (chat.dialogs().length) found.push(`dialogs: ${JSON.stringify(chat.dialogs())}`);
  const foreign = chat.foreignRequests();
  if (foreign.length) found.push(`requests: ${JSON.stringify(foreign)}`);
  const violations = await chat.violations();
  if (violations.length) found.push(`CSP violations: ${JSON.stringify(violations)}`);
  if (chat.navigations().length !== 1 || chat.popups().length) {
    found.push(`navigations: ${chat.navigations()} popups: ${chat.popups()}`);
  }
  if (chat.errors().length) found.push(`page errors: ${chat.errors()}`);
  for (const el of await allElements(chat.page)) {
    if (FORBIDDEN_TAGS.has(el.tag)) found.push(`element <${el.tag}> ${JSON.stringify(el.attrs)}`);
    const attrs = Object.keys(el.attrs).filter((a) => FORBIDDEN_ATTRS.test(a));
    if (attrs.length) found.push(`<${el.tag}> has ${attrs.map((a) => `${a}="${el.attrs[a]}"`).join(' ')}`);
    if (el.attrs['data-href'] !== undefined && !SAFE_HREF.test(el.attrs['data-href'])) {
      found.push(`link to ${el.attrs['data-href']}`);
    }
  }
  return found;
}

/** Clicks every link in the transcript: each may only ask the host to open a safe target. */
async function clickAllLinks(chat) {
  await chat.clearPosted();
  const links = await chat.page.locator('acp-message-list a.link').all();
  // Clicked on the element itself: what is asked here is what each link's click does, not where the pointer lands
  // (under load the list's "Go to the newest message" button could take a pointer click meant for a link below it).
  for (const link of links) await link.evaluate((a) => a.click());
  const posted = await chat.posted();
  assert.equal(posted.length, links.length);
  for (const m of posted) {
    assert.equal(m.type, 'openLink');
    assert.match(m.href, SAFE_HREF);
  }
}

/**
 * The corpus a few payloads at a time: the list holds older entries only near
 * the view (far-groups.ts), and a batch is within its newest entries, which
 * are always in the page, so every payload of a batch is rendered at once.
 */
function batches(corpus, size = 25) {
  const parts = [];
  for (let at = 0; at < corpus.length; at += size) parts.push(corpus.slice(at, at + size));
  return parts;
}

function assertVisible(texts, corpus, { verbatim }) {
  assert.equal(texts.length, corpus.length, 'one rendered entry per payload');
  corpus.forEach((p, i) => {
    for (const expected of verbatim ? [p.text] : p.visible) {
      assert.ok(
        squash(texts[i]).includes(squash(expected)),
        `${p.name}: "${expected}" is visible in ${JSON.stringify(texts[i])}`,
      );
    }
  });
}

describe('hostile agent text', function () {
  this.timeout(120_000);
  let chat;
  let corpus;
  beforeEach(async () => {
    chat = await openChatPage();
    corpus = xssCorpus(chat.origin);
  });
  afterEach(() => chat?.close());

  it('has a corpus of at least 40 payloads', () => {
    assert.ok(corpus.length >= 40, `${corpus.length} payloads`);
  });

  it('the detectors see a payload that does run (canary)', async () => {
    // Run through the DevTools protocol, not the renderer: what a successful injection would do.
    await chat.page.evaluate((url) => {
      window.xssFlag = 1;
      console.log('XSS-MARKER');
      const img = new Image();
      img.src = url;
    }, `${chat.origin}/beacon/canary.png`);
    const found = await problems(chat);
    assert.ok(
      found.some((f) => f.startsWith('window.xssFlag')),
      'flag seen',
    );
    assert.ok(
      found.some((f) => f.startsWith('console marker')),
      'marker seen',
    );
    assert.ok(
      found.some((f) => f.includes('/beacon/canary.png')),
      'beacon seen',
    );
  });

  it('as assistant messages', async () => {
    for (const part of batches(corpus)) {
      await chat.setEntries(part.map((p) => ({ kind: 'assistant', id: p.id, text: p.text })));
      assert.deepEqual(await problems(chat), []);
      assertVisible(await entryTexts(chat.page), part, { verbatim: false });
      await clickAllLinks(chat);
      assert.deepEqual(await problems(chat), []);
    }
  });

  it('as one assistant message that streams in', async () => {
    const text = corpus.map((p) => p.text).join('\n\n');
    const pieces = [];
    for (let at = 0; at < text.length; at += 17) pieces.push(text.slice(at, at + 17));
    await chat.setEntries([{ kind: 'assistant', id: 'stream', text: '' }]);
    await chat.streamText(0, pieces);
    assert.deepEqual(await problems(chat), []);
    const [rendered] = await entryTexts(chat.page);
    for (const p of corpus) {
      for (const v of p.visible) assert.ok(squash(rendered).includes(squash(v)), `${p.name}: "${v}" is visible`);
    }
  });

  it('as thoughts, collapsed and opened', async () => {
    for (const part of batches(corpus)) {
      await chat.setEntries(part.map((p) => ({ kind: 'thought', id: p.id, text: p.text })));
      assert.deepEqual(await problems(chat), []);
      for (const summary of await chat.page.locator('details.thought summary').all()) await summary.click();
      assert.deepEqual(await problems(chat), []);
      assertVisible(await entryTexts(chat.page), part, { verbatim: false });
      await clickAllLinks(chat);
    }
  });

  it('as user messages (shown verbatim)', async () => {
    for (const part of batches(corpus)) {
      await chat.setEntries(part.map((p) => ({ kind: 'user', id: p.id, text: p.text })));
      assert.deepEqual(await problems(chat), []);
      assertVisible(await entryTexts(chat.page), part, { verbatim: true });
    }
  });

  it('as tool call output, expanded', async () => {
    for (const part of batches(corpus)) {
      await chat.setEntries(
        part.map((p, i) => ({
          kind: 'tool',
          id: p.id,
          toolCallId: `call-${p.id}`,
          title: `Tool ${i}`,
          toolKind: 'other',
          status: 'completed',
          content: [{ type: 'content', block: { type: 'text', text: p.text } }],
          locations: [],
        })),
      );
      assert.deepEqual(await problems(chat), []);
      for (const head of await chat.page.locator('acp-tool-card button.head').all()) await head.click();
      assert.equal(
        await chat.page.locator('acp-tool-card acp-markdown').count(),
        part.length,
        'tool text is rendered by <acp-markdown>',
      );
      assert.deepEqual(await problems(chat), []);
      assertVisible(await entryTexts(chat.page), part, { verbatim: false });
      await clickAllLinks(chat);
    }
  });
});
