/**
 * Just enough of the DOM for the Markdown renderer's unit tests in Node: the
 * calls render-inline.ts makes (elements, text nodes, fragments, attributes,
 * listeners), serialised as a browser would, listeners as `@event="[handler]"`
 * (as litHtml.ts shows a Lit template's). The browser suites (test/webview)
 * check the real DOM; these run under mutation testing.
 */
/** Text or an attribute value as markup, escaped as a browser serialises it (litHtml.ts uses it too). */
export const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Elements serialised without an end tag. */
const VOID = new Set(['br', 'hr', 'img', 'input']);

class MiniNode {
  readonly childNodes: MiniNode[] = [];
  get lastChild(): MiniNode | null {
    return this.childNodes.at(-1) ?? null;
  }
  appendChild(node: MiniNode): MiniNode {
    if (node instanceof MiniFragment) this.childNodes.push(...node.childNodes.splice(0));
    else this.childNodes.push(node);
    return node;
  }
  append(...nodes: Array<MiniNode | string>): void {
    for (const n of nodes) this.appendChild(typeof n === 'string' ? new MiniText(n) : n);
  }
  set textContent(text: string) {
    this.childNodes.length = 0;
    if (text) this.childNodes.push(new MiniText(text));
  }
  get outerHtml(): string {
    return this.childNodes.map((c) => c.outerHtml).join('');
  }
}

class MiniText extends MiniNode {
  constructor(public data: string) {
    super();
  }
  appendData(more: string): void {
    this.data += more;
  }
  override get outerHtml(): string {
    return escapeText(this.data);
  }
}

class MiniFragment extends MiniNode {}

class MiniElement extends MiniNode {
  private readonly attributes = new Map<string, string>();
  private readonly listeners: string[] = [];
  readonly dataset: Record<string, string>;
  constructor(readonly localName: string) {
    super();
    this.dataset = new Proxy({} as Record<string, string>, {
      set: (target, key: string, value: string) => {
        this.setAttribute(`data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, value);
        target[key] = value;
        return true;
      },
    });
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }
  set className(value: string) {
    this.setAttribute('class', value);
  }
  set title(value: string) {
    this.setAttribute('title', value);
  }
  set tabIndex(value: number) {
    this.setAttribute('tabindex', String(value));
  }
  addEventListener(type: string): void {
    this.listeners.push(type);
  }
  override get outerHtml(): string {
    const attrs = [...this.attributes].map(([k, v]) => ` ${k}="${escapeText(v)}"`).join('');
    const on = this.listeners.map((type) => ` @${type}="[handler]"`).join('');
    const open = `<${this.localName}${attrs}${on}>`;
    return VOID.has(this.localName) ? open : `${open}${super.outerHtml}</${this.localName}>`;
  }
}

/** Installs the globals (`document`, `Text`, `Node`) while `run` runs. */
export function withMiniDom<T>(run: () => T): T {
  const globals = globalThis as Record<string, unknown>;
  const saved = { document: globals['document'], Text: globals['Text'], Node: globals['Node'] };
  globals['document'] = {
    createElement: (tag: string) => new MiniElement(tag),
    createTextNode: (text: string) => new MiniText(text),
    createDocumentFragment: () => new MiniFragment(),
  };
  globals['Text'] = MiniText;
  globals['Node'] = MiniNode;
  try {
    return run();
  } finally {
    Object.assign(globals, saved);
  }
}

/** Whether `value` is a node made by the mini DOM, and its markup. */
export function miniNodeHtml(value: unknown): string | undefined {
  return value instanceof MiniNode ? value.outerHtml : undefined;
}
