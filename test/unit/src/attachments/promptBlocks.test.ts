import * as assert from 'node:assert/strict';
import { buildPrompt, type PreparedAttachment, type PromptAttachment } from '../../../../src/attachments/promptBlocks';
import { imageTypeByName, imageTypeOf, MAX_ATTACHMENTS, MAX_INLINE_BYTES } from '../../../../src/shared/attachments';

const text = (id: string, bytes = 5, linkable = true): PromptAttachment => ({
  id,
  shown: { label: `${id}.txt`, icon: 'file' },
  prepared: { kind: 'text', uri: `file:///w/${id}.txt`, name: `${id}.txt`, text: 'x'.repeat(bytes), bytes, linkable },
});
const image = (id: string, linkable = true, uri: string | undefined = `file:///w/${id}.png`): PromptAttachment => ({
  id,
  shown: { label: `${id}.png`, icon: 'image' },
  prepared: {
    kind: 'image',
    ...(uri ? { uri } : {}),
    name: `${id}.png`,
    mimeType: 'image/png',
    data: 'AAAA',
    bytes: 3,
    linkable,
  },
});
const of = (id: string, prepared: PreparedAttachment): PromptAttachment => ({
  id,
  prepared,
  shown: { label: id, icon: 'file' },
});
const types = (r: ReturnType<typeof buildPrompt>) => (r.ok ? r.blocks.map((b) => b.type) : [...r.errors.entries()]);

describe('prompt blocks from attachments', () => {
  it('follow promptCapabilities: embedded and image when advertised, else links where the agent can open the file', () => {
    const both = [text('a'), image('b')];
    assert.deepEqual(types(buildPrompt('hi', both, { embeddedContext: true, image: true })), [
      'text',
      'resource',
      'image',
    ]);
    assert.deepEqual(types(buildPrompt('hi', both, { embeddedContext: true })), ['text', 'resource', 'resource_link']);
    assert.deepEqual(types(buildPrompt('hi', both, { image: true })), ['text', 'resource_link', 'image']);
    assert.deepEqual(types(buildPrompt('hi', both, undefined)), ['text', 'resource_link', 'resource_link']);
    // The text is first, and left out when empty (a prompt of attachments only).
    assert.deepEqual(types(buildPrompt('  ', [text('a')], { embeddedContext: true })), ['resource']);
  });

  it('refuse what the agent could not open (the web host, pasted content) when it does not take it inline, naming the reason', () => {
    const r = buildPrompt(
      'hi',
      [
        text('a', 5, false),
        image('b', false, undefined),
        of('c', { kind: 'link', uri: 'x:/c', name: 'c', why: 'Larger than 1 MiB', linkable: false }),
      ],
      {},
    );
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && Object.fromEntries(r.errors), {
      a: 'The agent does not accept embedded files, and it cannot open this one itself.',
      b: 'The agent does not accept images.',
      c: 'Larger than 1 MiB, and the agent cannot open this file itself.',
    });
  });

  it('keep the inline total within 10 MiB: past it a file goes as a link, and what cannot be linked is refused', () => {
    const half = Math.floor(MAX_INLINE_BYTES / 2);
    assert.deepEqual(
      types(buildPrompt('', [text('a', half), text('b', half), text('c', 10)], { embeddedContext: true })),
      ['resource', 'resource', 'resource_link'],
    );
    const r = buildPrompt('', [text('a', half), text('b', half), text('c', 10, false)], { embeddedContext: true });
    assert.match(!r.ok ? (r.errors.get('c') ?? '') : '', /up to 10 MiB in all/);
  });

  it('work around an agent that drops images beside resources (Gemini CLI): the text goes fenced, the image inline', () => {
    const r = buildPrompt(
      'look',
      [text('a'), image('b')],
      { embeddedContext: true, image: true },
      { resourcesDropImages: true },
    );
    assert.deepEqual(r.ok && r.blocks.map((b) => (b.type === 'text' ? b.text : b.type)), [
      'look',
      'file:///w/a.txt\n```\nxxxxx\n```',
      'image',
    ]);
    // Without an image there is nothing to lose: resources as usual.
    assert.deepEqual(
      types(buildPrompt('look', [text('a')], { embeddedContext: true, image: true }, { resourcesDropImages: true })),
      ['text', 'resource'],
    );
  });

  it('take at most ten attachments', () => {
    const r = buildPrompt(
      '',
      Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => text(`f${i}`)),
      { embeddedContext: true },
    );
    assert.deepEqual(!r.ok && [...r.errors.keys()], [`f${MAX_ATTACHMENTS}`]);
  });

  it('a selection is an embedded resource with its lines, else fenced text that its backticks cannot break out of', () => {
    const sel = of('s', {
      kind: 'snippet',
      uri: 'file:///w/a.ts#L3-L4',
      label: 'a.ts:L3-L4',
      text: 'const a = "```";\n',
    });
    const embedded = buildPrompt('', [sel], { embeddedContext: true });
    assert.deepEqual(embedded.ok && embedded.blocks, [
      {
        type: 'resource',
        resource: { uri: 'file:///w/a.ts#L3-L4', mimeType: 'text/plain', text: 'const a = "```";\n' },
      },
    ]);
    const plain = buildPrompt('', [sel], {});
    assert.deepEqual(plain.ok && plain.blocks, [{ type: 'text', text: 'a.ts:L3-L4\n````\nconst a = "```";\n````' }]);
  });

  it('know an image by its bytes, not its name', () => {
    assert.equal(imageTypeOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
    assert.equal(imageTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xdb])), 'image/jpeg');
    assert.equal(imageTypeOf(new TextEncoder().encode('GIF89a....')), 'image/gif');
    assert.equal(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
    assert.equal(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ')), undefined);
    assert.equal(imageTypeOf(new TextEncoder().encode('<svg>')), undefined);
    assert.equal(imageTypeByName('Shot.JPG'), 'image/jpeg');
    assert.equal(imageTypeByName('icon.svg'), undefined);
  });
});

describe("the @ popup's fuzzy match", () => {
  it("matches the query's characters in order, the file name and runs first", async () => {
    const { bestMatches, fuzzyScore } = await import('../../../../src/attachments/fuzzy');
    assert.equal(fuzzyScore('xyz', 'src/chat/chat.ts'), undefined);
    const paths = [
      'src/chat/chatTurns.ts',
      'src/chat/chat.ts',
      'test/unit/chat.test.ts',
      'src/connection/agentClient.ts',
      'webview/chat-app/chat-app.ts',
    ];
    assert.deepEqual(
      bestMatches('chat.ts', paths, (p) => p, 2),
      ['src/chat/chat.ts', 'test/unit/chat.test.ts'],
    );
    assert.deepEqual(
      bestMatches('agcl', paths, (p) => p, 5),
      ['src/connection/agentClient.ts'],
    );
    assert.equal(bestMatches('', paths, (p) => p, 2).length, 2);
  });
});
