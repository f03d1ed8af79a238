import * as assert from 'node:assert/strict';
import { COSTLY_PIECE_CHARS, PIECE_CHARS, pieceEnd, textPieces } from '../../../../webview/shared/text-pieces';
import { inPieces, type Segment } from '../../../../webview/terminal-output/ansi-segments';

/** Every piece within the bound, and together the whole text. */
function checkPieces(text: string, max = PIECE_CHARS): string[] {
  const pieces = textPieces(text, max);
  assert.equal(pieces.join(''), text, 'the pieces are the whole text');
  for (const piece of pieces) assert.ok(piece.length <= max, `a piece of ${piece.length} characters`);
  return pieces;
}

describe('long text in pieces (what one block lays out)', () => {
  it('leaves text up to the bound whole', () => {
    assert.deepEqual(textPieces('short'), ['short']);
    assert.deepEqual(textPieces('x'.repeat(PIECE_CHARS)), ['x'.repeat(PIECE_CHARS)]);
    assert.equal(pieceEnd('x'.repeat(PIECE_CHARS), 0), undefined);
  });

  it('cuts one long word of any script into pieces at the bound', () => {
    for (const fill of ['a', 'שלום', 'ภาษาไทย', '漢字', 'aא', 'QmFz+/9=']) {
      const text = fill.repeat(Math.ceil(262_144 / fill.length)).slice(0, 262_144);
      const pieces = checkPieces(text);
      assert.ok(pieces.length >= 128 && pieces.length <= 129, `${fill}: ${pieces.length} pieces`);
    }
  });

  it('cuts text of a script Chromium lays out slowly into shorter pieces, the same however far it has grown', () => {
    const mixed = 'aא'.repeat(20_000);
    for (const fill of [mixed, 'ภาษาไทย'.repeat(6_000), `${'x'.repeat(3_000)}${mixed}`]) {
      const pieces = textPieces(fill);
      assert.equal(pieces.join(''), fill);
      const longest = Math.max(...pieces.map((p) => p.length));
      const costlyFrom = fill.startsWith('x') ? 1 : 0;
      assert.ok(
        pieces.slice(costlyFrom + 1).every((p) => p.length <= COSTLY_PIECE_CHARS),
        `longest ${longest}`,
      );
      // A piece that can end ends where it will once more text follows (streamed text keeps its pieces).
      for (let cut = 600; cut < 6_000; cut += 997) {
        const grown = textPieces(fill.slice(0, cut)).slice(0, -1);
        assert.deepEqual(grown, pieces.slice(0, grown.length));
      }
    }
    assert.ok(textPieces('a'.repeat(20_000)).every((p) => p.length === PIECE_CHARS || p.length < PIECE_CHARS));
    assert.equal(textPieces('a'.repeat(20_000))[0]!.length, PIECE_CHARS);
  });

  it('ends a piece after a newline in its second half, so that lines stay whole', () => {
    const line = `${'w'.repeat(99)}\n`;
    const pieces = checkPieces(line.repeat(100), 1000);
    assert.ok(
      pieces.every((p) => p.endsWith('\n') && p.length === 1000),
      pieces.map((p) => p.length).join(','),
    );
    // A newline early in the window does not make a tiny piece: the cut falls at the bound.
    const [first] = checkPieces(`ab\n${'z'.repeat(3000)}`, 1000);
    assert.equal(first.length, 1000);
  });

  it('never cuts inside a character, before a combining mark or next to a joiner', () => {
    const family = '👩\u200d👩\u200d👧';
    for (const fill of ['😀', 'e\u0301\u0323', family, '🏳️\u200d🌈', 'a\ufe0f']) {
      const text = fill.repeat(Math.ceil(20_000 / fill.length));
      for (const piece of checkPieces(text, 1000)) {
        assert.ok(
          // eslint-disable-next-line no-misleading-character-class -- each mark or joiner alone, on purpose
          !/^[\udc00-\udfff\p{M}\u200c\u200d\ufe00-\ufe0f]/u.test(piece),
          `${JSON.stringify(fill)}: a piece starts with ${JSON.stringify(piece.slice(0, 2))}`,
        );
        assert.ok(
          !/[\ud800-\udbff\u200d]$/.test(piece),
          `${JSON.stringify(fill)}: a piece ends with ${JSON.stringify(piece.slice(-2))}`,
        );
      }
    }
  });

  it('cuts a run of combining marks longer than it looks back, rather than not at all', () => {
    const text = `a${'\u0301'.repeat(5000)}`;
    assert.ok(checkPieces(text, 1000).length > 1);
  });

  it('splits terminal output where its text is cut, a coloured segment across a cut into two', () => {
    const segments: Segment[] = [
      { text: 'a'.repeat(1500), classes: 'fg-red' },
      { text: 'b'.repeat(PIECE_CHARS), classes: '' },
      { text: 'tail', classes: 'bold' },
    ];
    const pieces = inPieces(segments);
    assert.deepEqual(
      pieces.map((p) => p.map((s) => s.text).join('')),
      textPieces(segments.map((s) => s.text).join('')),
    );
    assert.deepEqual(
      pieces[0]!.map((s) => s.classes),
      ['fg-red', ''],
    );
    assert.deepEqual(
      pieces.at(-1)!.map((s) => s.classes),
      ['', 'bold'],
    );
    assert.deepEqual(inPieces([{ text: 'short', classes: '' }]), [[{ text: 'short', classes: '' }]]);
  });
});
