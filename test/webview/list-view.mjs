/** Where the transcript (<acp-message-list>) is scrolled, for the tests of the list. */

export const scroller = (page) => page.locator('acp-message-list .scroller');
/** How far the transcript's view is from its newest end, in CSS px. */
export const fromEnd = (page) => scroller(page).evaluate((s) => s.scrollHeight - s.clientHeight - s.scrollTop);
/** Waits until the view is at the newest end. */
export const atEnd = (page) =>
  page.waitForFunction(
    () => {
      const s = document
        .querySelector('acp-chat-app')
        .shadowRoot.querySelector('acp-message-list')
        .shadowRoot.querySelector('.scroller');
      return s.scrollHeight - s.clientHeight - s.scrollTop <= 1;
    },
    undefined,
    { timeout: 2_000 },
  );
/** Where entry `index` is, relative to the top of the view. */
export const entryTop = (page, index) =>
  page.evaluate((i) => {
    const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
    return (
      list.querySelectorAll('acp-chat-entry')[i].getBoundingClientRect().top -
      list.querySelector('.scroller').getBoundingClientRect().top
    );
  }, index);
/** Two frames and a task: the browser's intersection and resize observations have been delivered. */
export const settle = (page) =>
  page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
