/**
 * Runs before prismjs is evaluated (imported first): Prism reads these flags
 * from `window.Prism` when it loads. `manual` stops it from scanning the
 * document on load; we only ever call `Prism.tokenize`. (globalThis is the
 * window in the webview, and lets the Markdown renderer load in Node's unit tests.)
 */
(globalThis as unknown as { Prism: object }).Prism = { manual: true, disableWorkerMessageHandler: true };

export {};
