/** What an agent names and writes, shown as it is: bidi controls visible, combining marks bounded, in linear time. */
import * as assert from 'node:assert/strict';
import { visibleName, visibleProse } from '../../../../../src/shared/text/visibleText';

describe('visible text', () => {
  it('shows every bidi control in a name as what it is', () => {
    assert.equal(visibleName('photo\u202egnp.exe'), 'photo⟨U+202E⟩gnp.exe');
    assert.equal(visibleName('a\u2066b\u2069c\u200fd\u061ce'), 'a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩d⟨U+061C⟩e');
    assert.equal(visibleName('plain name.ts'), 'plain name.ts');
  });

  it('keeps the marks a script needs, counts the rest', () => {
    assert.equal(visibleName('Việt Nam'), 'Việt Nam', 'two marks on a letter');
    assert.equal(visibleName('בְּרֵאשִׁ֖ית'), 'בְּרֵאשִׁ֖ית', 'pointed Hebrew with cantillation');
    assert.equal(visibleName(`a${'\u0301'.repeat(10)}`), `a${'\u0301'.repeat(4)}⟨+6 marks⟩`);
    assert.equal(visibleProse(`a${'\u0301'.repeat(10)}`), `a${'\u0301'.repeat(8)}⟨+2 marks⟩`);
  });

  it('in prose, shows the controls that reorder and leaves the marks that RTL text uses', () => {
    assert.equal(visibleProse('x \u202e y'), 'x ⟨U+202E⟩ y');
    assert.equal(visibleProse('שלום\u200f!'), 'שלום\u200f!');
  });

  it('is linear: 100,000 characters of each worst shape in well under a second', () => {
    const shapes = [
      '\u202e'.repeat(100_000),
      '\u0301'.repeat(100_000),
      `a${'\u0301\u0302\u0303\u0304'.repeat(25_000)}`,
      'a\u0301\u0301\u0301\u0301'.repeat(20_000),
      'x'.repeat(100_000),
    ];
    for (const shape of shapes) {
      const start = performance.now();
      visibleName(shape);
      visibleProse(shape);
      const ms = performance.now() - start;
      assert.ok(ms < 200, `${ms.toFixed(1)} ms for ${JSON.stringify(shape.slice(0, 8))}…`);
    }
  });
});
