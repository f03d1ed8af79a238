/**
 * What a user cannot reach in the chat view as laid out now: every control (button, picker, field, link, anything
 * focusable) that is drawn outside the window, cut by a box that does not scroll, or whose label is cut without a
 * tooltip that says it whole; and a page that scrolls sideways. The width contract of issue 46.
 */

/** Runs in the page: one line per problem, empty when every control is in reach. */
export function outOfReach() {
  const INTERACTIVE =
    'button, select, textarea, input:not([type="hidden"]), a[href], [role="button"], [role="combobox"], [role="tab"], [tabindex]:not([tabindex="-1"])';
  const problems = [];
  const parentOf = (el) => el.assignedSlot ?? el.parentElement ?? el.getRootNode().host ?? null;
  const nameOf = (el) =>
    (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || el.localName)
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 40);
  const describe = (el) =>
    `${el.localName}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''} "${nameOf(el)}"`;
  const controls = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(INTERACTIVE)) controls.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  const canvas = document.createElement('canvas').getContext('2d');
  for (const el of controls) {
    const style = getComputedStyle(el);
    if (el.getClientRects().length === 0 || style.visibility === 'hidden') continue;
    // Inside a closed <details>, or a part the page keeps hidden: not shown, so not cut.
    if (el.closest('[hidden]')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    // The part of the control that can be brought into view, narrowed by every box around it that clips.
    let [left, right, top, bottom] = [box.left, box.right, box.top, box.bottom];
    let scrollsX = false;
    let scrollsY = false;
    for (let a = parentOf(el); a && a !== document.documentElement; a = parentOf(a)) {
      if (!(a instanceof Element)) continue;
      const s = getComputedStyle(a);
      const clipsX = s.overflowX !== 'visible' || s.contentVisibility === 'auto';
      const clipsY = s.overflowY !== 'visible' || s.contentVisibility === 'auto';
      if (!clipsX && !clipsY) continue;
      const r = a.getBoundingClientRect();
      const scrollableX = /auto|scroll/.test(s.overflowX) && a.scrollWidth > a.clientWidth;
      const scrollableY = /auto|scroll/.test(s.overflowY) && a.scrollHeight > a.clientHeight;
      if (clipsX && !scrollableX && !scrollsX) [left, right] = [Math.max(left, r.left), Math.min(right, r.right)];
      if (clipsY && !scrollableY && !scrollsY) [top, bottom] = [Math.max(top, r.top), Math.min(bottom, r.bottom)];
      scrollsX ||= scrollableX;
      scrollsY ||= scrollableY;
    }
    const shownX = Math.min(right, innerWidth) - Math.max(left, 0);
    const shownY = scrollsY ? bottom - top : Math.min(bottom, innerHeight) - Math.max(top, 0);
    if (shownX < Math.min(box.width, 16) - 1 || (!scrollsX && shownX < box.width - 1)) {
      problems.push(
        `${describe(el)} is cut sideways: ${Math.max(0, Math.round(shownX))} of ${Math.round(box.width)} px shown`,
      );
    } else if (shownY < box.height - 1) {
      problems.push(
        `${describe(el)} is cut: ${Math.max(0, Math.round(shownY))} of ${Math.round(box.height)} px high shown`,
      );
    }
    // A label that does not fit must be said whole by a tooltip (the control's, or the nearest one around it).
    let tip = '';
    for (let a = el; a && !tip; a = parentOf(a)) tip = (a instanceof Element && a.getAttribute('title')) || '';
    if (el.localName === 'select') {
      const shown = el.selectedOptions[0]?.textContent ?? '';
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      if (canvas.measureText(shown).width > room && !tip.includes(shown)) {
        problems.push(
          `${describe(el)} shows "${shown}" cut (${Math.round(canvas.measureText(shown).width)} px in ${Math.round(room)}), and no tooltip says it`,
        );
      }
    } else if (el.localName === 'button' && el.scrollWidth > el.clientWidth + 1) {
      const text = el.textContent.replace(/\s+/g, ' ').trim();
      if (text && !tip.includes(text)) problems.push(`${describe(el)}'s label is cut, and no tooltip says it`);
    }
  }
  // Text cut with an ellipsis is said whole by a tooltip (its own, or the nearest one around it).
  const cut = [];
  const walkText = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walkText(el.shadowRoot);
      if (el.scrollWidth <= el.clientWidth + 1 || el.getClientRects().length === 0) continue;
      if (getComputedStyle(el).textOverflow !== 'ellipsis' || el.localName === 'select') continue;
      cut.push(el);
    }
  };
  walkText(document);
  for (const el of cut) {
    let tip = '';
    for (let a = el; a && !tip; a = parentOf(a)) tip = (a instanceof Element && a.getAttribute('title')) || '';
    const text = el.textContent.replace(/\s+/g, ' ').trim();
    if (text && !tip.replace(/\s+/g, ' ').toLowerCase().includes(text.toLowerCase())) {
      problems.push(`${describe(el)} is cut, and no tooltip says it whole`);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth + 1) problems.push(`the page scrolls sideways (${page.scrollWidth} px wide)`);
  return problems;
}
