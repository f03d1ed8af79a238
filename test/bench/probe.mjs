/**
 * Code that runs inside the benchmark page. Each export is serialised by
 * Playwright, so each is self-contained and talks to the others only through
 * `window.__bench` (the probe) and `window.__benchData` (what to post).
 *
 * How a paint is seen: a requestAnimationFrame loop posts a MessageChannel
 * message from each rAF callback; that task runs after the frame's style,
 * layout and paint, so its timestamp is "this frame is painted". A message
 * counts as painted in the first such frame that began (rAF ran) after it
 * arrived and by whose end the DOM had changed since it arrived (a
 * MutationObserver watches the document and every shadow root): a view that
 * renders later than the message (in rAF, a timer) gets the later frame.
 * Tasks queued before the posted message run between a frame and its stamp,
 * hence the "began after it arrived" condition.
 */

/** Init script (before the webview's bundle): mutation counter, shadow roots, arrival stamps. */
export function installProbe() {
  const probe = { mutations: 0, roots: [], onArrival: undefined };
  const observer = new MutationObserver(() => {
    probe.mutations++;
  });
  const watch = (node) =>
    observer.observe(node, { subtree: true, childList: true, characterData: true, attributes: true });
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    probe.roots.push(root);
    watch(root);
    return root;
  };
  watch(document);
  // Capturing listeners on the target run before the webview's own listener: this stamps arrival.
  window.addEventListener('message', () => probe.onArrival?.(performance.now()), { capture: true });
  /**
   * Calls onFrame(paintedAt, beganAt, frameTime) once per frame until the
   * returned stop function is called. `frameTime` is the frame's own time (the
   * rAF timestamp: when its vsync, or under an unthrottled frame rate its
   * begin-frame, was issued), so `paintedAt - frameTime` says whether the
   * frame was done within a vsync interval.
   */
  probe.startFrames = (onFrame) => {
    let running = true;
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => {
      if (running) onFrame(performance.now(), e.data[0], e.data[1]);
    };
    const loop = (frameTime) => {
      if (!running) return;
      channel.port2.postMessage([performance.now(), frameTime]);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    return () => {
      running = false;
      channel.port1.close();
    };
  };
  /** Whether the shown list's newest entry element shows `text` (through the shadow roots inside it). */
  probe.newestShows = (text) => {
    const deep = (node) =>
      [...node.childNodes]
        .map((c) => (c.nodeType === 3 ? c.textContent : `${c.shadowRoot ? deep(c.shadowRoot) : ''}${deep(c)}`))
        .join('');
    const all = document
      .querySelector('acp-chat-app')
      ?.shadowRoot.querySelector('acp-message-list:not(.kept)')
      ?.shadowRoot.querySelectorAll('acp-chat-entry');
    const last = all?.[all.length - 1];
    return !!last && deep(last.shadowRoot ?? last).includes(text);
  };
  /** The entries message `entries` as chat `chatId`'s, keeping `keep`, its answer that says `marker` saying `other`. */
  probe.asChat = (entries, { chatId, keep, marker, other }) => ({
    ...entries,
    chatId,
    keep,
    ops: entries.ops.map((op) =>
      op.op === 'set' && op.entry.kind === 'assistant' && op.entry.text.includes(marker)
        ? { ...op, entry: { ...op.entry, text: op.entry.text.replace(marker, other) } }
        : op,
    ),
  });
  /** Whether `text` is in the document or any shadow root (each root's textContent stops at nested roots). */
  probe.shows = (text) =>
    document.body.textContent.includes(text) || probe.roots.some((r) => r.textContent.includes(text));
  window.__bench = probe;
}

/** Resolves once <acp-chat-app> is defined and has rendered. */
export async function waitForApp() {
  for (let i = 0; i < 600; i++) {
    const app = document.querySelector('acp-chat-app');
    if (customElements.get('acp-chat-app') && app?.shadowRoot?.childElementCount) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('<acp-chat-app> did not render within 30 s');
}

/**
 * Posts each message at its time (ms after the start), in real time, and
 * records when each arrived and was painted. Messages due while the page is
 * busy are posted together as soon as it is free, like a queue of host posts.
 * Only messages with `waits` set (they carry text) must change the DOM; a
 * status message may legitimately change nothing, and gets no paint time.
 */
export function runStream() {
  const { times, messages, waits, timeoutMs } = window.__benchData;
  const b = window.__bench;
  const n = messages.length;
  const arrival = [],
    mutationsAt = [],
    painted = [],
    began = [],
    frameTimes = [],
    vsyncs = [];
  let arrived = 0,
    done = 0,
    next = 0;
  // Aligns the trace's clock with this page's (see trace.mjs).
  performance.mark('bench-clock');
  return new Promise((resolve, reject) => {
    const start = performance.now() + 50;
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `stream: after ${timeoutMs} ms, ${next} of ${n} messages posted, ${arrived} arrived, ` +
              `${done} painted (the next one: ${JSON.stringify(messages[done]).slice(0, 200)}; frames requested: ${stopFrames !== undefined}, DOM changes seen: ${b.mutations})`,
          ),
        ),
      timeoutMs,
    );
    // Frames are requested only while a message waits for its paint: an idle rAF loop would add main-thread time.
    let stopFrames;
    const onFrame = (t, beganAt, frameTime) => {
      vsyncs.push(frameTime);
      for (; done < arrived; done++) {
        if (!waits[done]) painted[done] = NaN;
        else if (arrival[done] < beganAt && b.mutations > mutationsAt[done]) {
          [painted[done], began[done], frameTimes[done]] = [t, beganAt, frameTime];
        } else break;
      }
      if (done === n) finish();
      else if (done === arrived) {
        stopFrames();
        stopFrames = undefined;
      }
    };
    b.onArrival = (t) => {
      arrival[arrived] = t;
      mutationsAt[arrived++] = b.mutations;
      stopFrames ??= b.startFrames(onFrame);
    };
    const post = () => {
      const now = performance.now() - start;
      while (next < n && times[next] <= now) window.postMessage(messages[next++], '*');
      if (next < n) setTimeout(post, Math.max(0, times[next] - (performance.now() - start)));
    };
    setTimeout(post, 50);
    function finish(error) {
      clearTimeout(timer);
      stopFrames?.();
      b.onArrival = undefined;
      if (error) reject(error);
      else resolve({ start, arrival, painted, began, frameTimes, vsyncs });
    }
  });
}

/** Posts the status, waits for it to paint, then posts the transcript and times it to the first frame that shows `marker`. */
export async function runTranscript() {
  const { status, entries, marker, timeoutMs } = window.__benchData;
  const b = window.__bench;
  const paintOnce = () =>
    new Promise((resolve) => {
      let frames = 0;
      const stop = b.startFrames(() => {
        if (++frames === 2) {
          stop();
          resolve();
        }
      });
    });
  window.postMessage(status, '*');
  await paintOnce();
  return new Promise((resolve, reject) => {
    let arrived, handled;
    const timer = setTimeout(() => finish(new Error(`transcript not painted after ${timeoutMs} ms`)), timeoutMs);
    // Registered after the webview's listener, so it runs after it and after the microtasks it queued (a Lit render).
    const afterHandler = () => {
      handled = performance.now();
    };
    b.onArrival = (t) => {
      arrived = t;
    };
    window.addEventListener('message', afterHandler);
    const stop = b.startFrames((t, began) => {
      if (arrived !== undefined && arrived < began && b.shows(marker)) finish(undefined, t);
    });
    window.postMessage(entries, '*');
    function finish(error, paintedAt) {
      clearTimeout(timer);
      stop();
      b.onArrival = undefined;
      window.removeEventListener('message', afterHandler);
      if (error) reject(error);
      else resolve({ firstPaintMs: paintedAt - arrived, handlerMs: handled - arrived });
    }
  });
}

/**
 * Two chats of the 2,000-entry transcript: the first shown, then the second
 * (the page keeps the first one's list), then back to the first as the host
 * sends it (a patch of what it gained meanwhile: nothing). Times the switch
 * back: its message's arrival to the first frame that shows the first chat.
 */
export async function runSwitch() {
  const { status, entries, marker, timeoutMs } = window.__benchData;
  const b = window.__bench;
  const shownHas = b.newestShows;
  const settle = (check) =>
    new Promise((resolve) => {
      const stop = b.startFrames(() => {
        if (check()) {
          stop();
          resolve();
        }
      });
    });
  const other = 'Bench other chat marker 7c2e';
  window.postMessage({ ...status, status: { ...status.status, chatId: 'c1' } }, '*');
  window.postMessage({ ...entries, chatId: 'c1', keep: [] }, '*');
  await settle(() => shownHas(marker));
  const second = b.asChat(entries, { chatId: 'c2', keep: ['c1'], marker, other });
  window.postMessage(second, '*');
  await settle(() => shownHas(other));
  return new Promise((resolve, reject) => {
    let arrived;
    const timer = setTimeout(() => finish(new Error(`switch not painted after ${timeoutMs} ms`)), timeoutMs);
    b.onArrival = (t) => {
      arrived = t;
    };
    const stop = b.startFrames((t, began) => {
      if (arrived !== undefined && arrived < began && shownHas(marker)) finish(undefined, t);
    });
    window.postMessage({ type: 'entries', chatId: 'c1', keep: ['c2'], length: entries.ops.length, ops: [] }, '*');
    function finish(error, paintedAt) {
      clearTimeout(timer);
      stop();
      b.onArrival = undefined;
      if (error) reject(error);
      else resolve({ switchMs: paintedAt - arrived });
    }
  });
}
