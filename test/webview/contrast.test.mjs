/**
 * Non-text contrast (WCAG 1.4.11, at least 3:1) of the status icons and
 * checkbox borders that axe does not measure: icon-font glyphs are not text
 * to it, and a checkbox's border is not either. Measured from computed
 * colours against what is painted behind each element, in every theme.
 */
import * as assert from 'node:assert/strict';
import { openChatPage, runningStatus } from './harness.mjs';

const status = runningStatus({
  plan: [
    { content: 'Read the file', priority: 'high', status: 'completed' },
    { content: 'Refactor', priority: 'low', status: 'pending' },
  ],
  controls: {
    commands: [],
    configOptions: [
      { type: 'boolean', id: 'web', name: 'Web search', currentValue: false },
      { type: 'boolean', id: 'plan', name: 'Plan first', currentValue: true },
    ],
  },
});

const entries = [
  {
    kind: 'tool',
    id: 't1',
    toolCallId: 'c1',
    title: 'Read a.ts',
    toolKind: 'read',
    status: 'completed',
    content: [],
    locations: [],
  },
  { kind: 'plan', id: 'p1', entries: status.plan },
  { kind: 'assistant', id: 'a1', text: '- [x] done\n- [ ] to do' },
];

/** What to measure: [label, `host-element selector-in-its-shadow-root`, which colour of it]. */
const TARGETS = [
  ['tool card: completed', 'acp-tool-card .status.completed .codicon', 'color'],
  ['plan: completed step', 'acp-plan-view .completed .codicon', 'color'],
  ['plan: pending step', 'acp-plan-view .pending .codicon', 'color'],
  ['Markdown task: done', 'acp-markdown .task-mark.done .codicon', 'color'],
  ['header: connected', 'acp-chat-header .state.connected .codicon', 'color'],
  ['session setting: checkbox', 'acp-session-controls input[type="checkbox"]', 'border'],
];

/**
 * The contrast ratio of each target's colour (or border colour) against the
 * background painted behind it: the backgrounds of its composed ancestors,
 * composited over the page's. Runs in the page.
 */
function measure(targets) {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) throw new Error(`unexpected colour ${c}`);
    const [r, g, b, a = 1] = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return { r, g, b, a };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const luminance = ({ r, g, b }) => {
    const lin = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (x, y) => {
    const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05);
  };
  const composedParent = (el) => el.parentElement ?? el.getRootNode().host ?? null;
  const backgroundBehind = (el) => {
    const layers = [];
    for (let e = el; e; e = composedParent(e)) layers.push(parse(getComputedStyle(e).backgroundColor));
    return layers.reverse().reduce((below, layer) => over(layer, below), { r: 255, g: 255, b: 255, a: 1 });
  };
  /** `host rest…`: the elements matching `rest` in the shadow root of every `host` element, wherever it is. */
  const findAll = (selector) => {
    const [host, ...rest] = selector.split(' ');
    const hosts = [];
    const walk = (scope) => {
      for (const el of scope.querySelectorAll('*')) {
        if (el.matches(host)) hosts.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document.querySelector('acp-chat-app').shadowRoot);
    return hosts.flatMap((h) => [...h.shadowRoot.querySelectorAll(rest.join(' '))]);
  };
  return targets
    .map(([label, selector, which]) => {
      const els = findAll(selector);
      if (els.length === 0) return { label, error: `nothing matches ${selector}` };
      return els.map((el) => {
        const cs = getComputedStyle(el);
        if (which === 'border' && (cs.borderTopStyle === 'none' || parseFloat(cs.borderTopWidth) < 1)) {
          return { label, error: 'no border' };
        }
        const colour = parse(which === 'border' ? cs.borderTopColor : cs.color);
        // The element's own background is behind its glyph, but not behind its border.
        const behind = backgroundBehind(which === 'border' ? composedParent(el) : el);
        return { label, ratio: Math.round(ratio(over(colour, behind), behind) * 100) / 100 };
      });
    })
    .flat();
}

describe('non-text contrast of status icons and checkboxes', function () {
  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`is at least 3:1 in the ${theme} theme`, async () => {
      const chat = await openChatPage({ theme });
      try {
        await chat.apply({ type: 'status', status });
        await chat.setEntries(entries);
        const results = await chat.page.evaluate(measure, TARGETS);
        const failures = results.filter((r) => r.error || r.ratio < 3);
        assert.deepEqual(failures, [], JSON.stringify(results));
        assert.equal(results.filter((r) => r.label === 'session setting: checkbox').length, 2, 'checked and unchecked');
      } finally {
        await chat.close();
      }
    });
  }
});
