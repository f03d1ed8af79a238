/**
 * Helpers that look into the rendered chat (shadow roots included) for the
 * webview component tests. Each runs in the page through `page.evaluate`.
 */

/** Serialises an element's composed tree (shadow roots inlined as `#shadow`), without Lit's comment markers. */
export function composedHtml(page, selector) {
  return page.evaluate((sel) => {
    const root = document.querySelector('acp-chat-app');
    const target = sel ? findDeep(root, sel) : root;
    if (!target) throw new Error(`nothing matches ${sel}`);
    const VOID = new Set([
      'area',
      'base',
      'br',
      'col',
      'embed',
      'hr',
      'img',
      'input',
      'link',
      'meta',
      'source',
      'track',
      'wbr',
    ]);
    return serialise(target);

    function findDeep(node, s) {
      const scopes = [node.shadowRoot ?? node];
      while (scopes.length) {
        const scope = scopes.shift();
        const hit = scope.querySelector(s);
        if (hit) return hit;
        for (const el of scope.querySelectorAll('*')) if (el.shadowRoot) scopes.push(el.shadowRoot);
      }
      return null;
    }
    function serialise(node) {
      if (node.nodeType === Node.TEXT_NODE) {
        return node.data.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
      }
      if (node.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
        return `<#shadow>${[...node.childNodes].map(serialise).join('')}</#shadow>`;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return '';
      const name = node.localName;
      const attrs = [...node.attributes].map((a) => ` ${a.name}="${a.value.replace(/"/g, '&quot;')}"`).join('');
      if (VOID.has(name)) return `<${name}${attrs}>`;
      const shadow = node.shadowRoot ? serialise(node.shadowRoot) : '';
      return `<${name}${attrs}>${shadow}${[...node.childNodes].map(serialise).join('')}</${name}>`;
    }
  }, selector);
}

/**
 * Every element in the chat's composed tree: `{ tag, attrs: {name: value} }`.
 * Used to prove that hostile text produced no element or attribute of its own.
 */
export function allElements(page) {
  return page.evaluate(() => {
    const out = [];
    const walk = (scope) => {
      for (const el of scope.querySelectorAll('*')) {
        out.push({ tag: el.localName, attrs: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])) });
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document.querySelector('acp-chat-app').shadowRoot);
    return out;
  });
}

/** The <acp-markdown> elements in transcript order, found through the shadow roots; runs `fn(elements, arg)` in the page. */
export async function withMarkdowns(page, fn, arg) {
  const elements = await page.evaluateHandle(() => {
    const found = [];
    const walk = (scope) => {
      for (const el of scope.querySelectorAll('*')) {
        if (el.localName === 'acp-markdown') found.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document.querySelector('acp-chat-app').shadowRoot);
    return found;
  });
  try {
    return await elements.evaluate(fn, arg);
  } finally {
    await elements.dispose();
  }
}

/** The composed HTML inside each <acp-markdown> (its `.markdown` div), in transcript order. */
export function markdownHtmls(page) {
  return withMarkdowns(page, (elements) => {
    const VOID = new Set(['br', 'hr', 'img', 'input', 'wbr']);
    const serialise = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        return node.data.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
      }
      if (node.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
        return `<#shadow>${[...node.childNodes].map(serialise).join('')}</#shadow>`;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return '';
      const attrs = [...node.attributes].map((a) => ` ${a.name}="${a.value.replace(/"/g, '&quot;')}"`).join('');
      if (VOID.has(node.localName)) return `<${node.localName}${attrs}>`;
      const shadow = node.shadowRoot ? serialise(node.shadowRoot) : '';
      return `<${node.localName}${attrs}>${shadow}${[...node.childNodes].map(serialise).join('')}</${node.localName}>`;
    };
    return elements.map((el) => [...el.shadowRoot.querySelector('.markdown').childNodes].map(serialise).join(''));
  });
}

/** A text entry for the transcript. */
export const textEntry = (kind, text, id = `${kind}-1`) => ({ kind, id, text });

/** Whitespace-insensitive text, for "is this visible" checks. */
export const squash = (text) => text.replace(/\s+/g, ' ').trim();

/** The text of each <acp-chat-entry>, shadow roots included (what is rendered, not what is hidden). */
export function entryTexts(page) {
  return page.evaluate(() => {
    const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
    const text = (node) => {
      if (node.nodeType === Node.TEXT_NODE) return node.parentElement?.checkVisibility() === false ? '' : node.data;
      if (node.nodeName === 'STYLE') return '';
      if (node.nodeName === 'BR') return '\n';
      const inner = [...(node.shadowRoot?.childNodes ?? []), ...node.childNodes].map(text).join('');
      return node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display !== 'inline' ? `${inner}\n` : inner;
    };
    return [...list.querySelectorAll('acp-chat-entry')].map(text);
  });
}
