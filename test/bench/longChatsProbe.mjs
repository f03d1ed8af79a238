/**
 * Code that runs inside the page for the long-chat figures (longChats.mjs).
 * Like probe.mjs, each export is serialised by Playwright, so each is
 * self-contained; they meet through `window.__bench` (probe.mjs's probe),
 * `window.__timers` and `window.__benchData`.
 */

/**
 * Init script (before the webview's bundle): counts the callbacks the page's
 * timers run, by kind, so that an idle spell shows whether a loop, an
 * interval or a poll is left running. CSS animations are counted apart
 * (`runningAnimations`): a spinner runs in the compositor and Blink, not in a timer.
 */
export function installTimerCounts() {
  const counts = { animationFrames: 0, timeouts: 0, intervals: 0, idleCallbacks: 0 };
  const wrap = (name, key) => {
    const original = window[name];
    window[name] = function (callback, ...rest) {
      if (typeof callback !== 'function') return original.call(this, callback, ...rest);
      return original.call(
        this,
        function (...args) {
          counts[key]++;
          return callback.apply(this, args);
        },
        ...rest,
      );
    };
  };
  wrap('requestAnimationFrame', 'animationFrames');
  wrap('setTimeout', 'timeouts');
  wrap('setInterval', 'intervals');
  wrap('requestIdleCallback', 'idleCallbacks');
  window.__timers = counts;
}

/** The timer counts so far and the DOM changes the probe saw, plus the CSS animations running now. */
export function activity() {
  const roots = [document, ...window.__bench.roots];
  const running = new Set();
  for (const root of roots) for (const a of root.getAnimations()) if (a.playState === 'running') running.add(a);
  return { ...window.__timers, mutations: window.__bench.mutations, runningAnimations: running.size };
}

/**
 * How many entries the shown list has placed, from its oldest run to the
 * newest (all of them once the backfill is done; a far run or group off screen holds
 * no entry elements, only its place).
 */
export function shownEntryCount() {
  const list = document.querySelector('acp-chat-app')?.shadowRoot?.querySelector('acp-message-list:not(.kept)');
  const oldest = list?.shadowRoot?.querySelector('.run');
  return oldest ? list.entries.length - Number(oldest.dataset.run) : 0;
}

/** Posts the status and the entries, resolving on the first frame that shows `marker`. */
export function showTranscript() {
  const { status, entries, marker } = window.__benchData;
  const b = window.__bench;
  window.postMessage(status, '*');
  window.postMessage(entries, '*');
  return new Promise((resolve) => {
    const stop = b.startFrames(() => {
      if (b.shows(marker)) {
        stop();
        resolve();
      }
    });
  });
}

/**
 * Gets the scroller ready for the keyboard: focused (as a user tabs to the
 * conversation), and every frame stamped (probe.mjs's startFrames) until
 * `stopScroll()` stops it.
 */
export function startScroll() {
  const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list:not(.kept)');
  const scroller = list.shadowRoot.querySelector('.scroller');
  const state = { scroller, frames: [], stop: undefined };
  scroller.focus();
  performance.mark('bench-clock');
  state.stop = window.__bench.startFrames((painted, began, frameTime) => state.frames.push([frameTime, painted]));
  window.__scroll = state;
  return { scrollHeight: scroller.scrollHeight, clientHeight: scroller.clientHeight };
}

/**
 * Whether the view is at the top. Reads layout (a layout the next frame would
 * do anyway, done a little sooner): an IntersectionObserver on the oldest
 * entry tells when it comes into view, not when its top does.
 */
export function atTop() {
  return window.__scroll.scroller.scrollTop === 0;
}

/** Stops the frame stamps (a task of its own, short: the trace of the scroll ends after it, before `scrollFrames`). */
export function stopScroll() {
  window.__scroll.stop();
}

/**
 * Each frame stamped as `[frameTime, paintedAt]`, the index of the entry at
 * the top of the view, and the scroller's final position (after `stopScroll`:
 * handing over ~18,000 frames and reading the layout is a task of ~90 ms).
 */
export function scrollFrames() {
  const { frames, scroller } = window.__scroll;
  // The entry at the top of the view: how far back the scroll got.
  const root = scroller.getRootNode();
  const box = scroller.getBoundingClientRect();
  const hit = root.elementFromPoint(box.left + box.width / 2, box.top + 8)?.closest('acp-chat-entry');
  const list = root.host;
  const topEntry = hit ? list.entries.findIndex((e) => e.id === hit.entry.id) : -1;
  return { frames, topEntry, scrollTop: scroller.scrollTop, scrollHeight: scroller.scrollHeight };
}

/**
 * Another open chat shown, one the page does not keep (its list is over
 * KEEP_MAX_CHARS): the host sends it again, newest first. `c1` is shown and
 * settled; then the first post of `c2` (`entries`: the same chat's, its newest
 * answer saying `other` for `marker`) arrives with nothing kept. Its arrival to
 * the first frame that shows c2's newest entry.
 */
export async function runSwitchAway() {
  const { status, entries, marker, timeoutMs } = window.__benchData;
  const b = window.__bench;
  const other = 'Bench other chat marker 91d0';
  const second = b.asChat(entries, { chatId: 'c2', keep: [], marker, other });
  return new Promise((resolve, reject) => {
    let arrived;
    const timer = setTimeout(() => finish(new Error(`switch not painted after ${timeoutMs} ms`)), timeoutMs);
    // The host posts another chat's list first, then its status (ChatWebviewSync.flush).
    b.onArrival = (t) => {
      arrived ??= t;
    };
    const stop = b.startFrames((t, began) => {
      if (arrived !== undefined && arrived < began && b.newestShows(other)) finish(undefined, t);
    });
    window.postMessage(second, '*');
    window.postMessage({ ...status, status: { ...status.status, chatId: 'c2' } }, '*');
    function finish(error, paintedAt) {
      clearTimeout(timer);
      stop();
      b.onArrival = undefined;
      if (error) reject(error);
      else resolve({ switchMs: paintedAt - arrived });
    }
  });
}
