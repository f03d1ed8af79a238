/**
 * Runs before prismjs is evaluated (imported first): Prism reads these flags
 * from `window.Prism` when it loads. `manual` stops it from scanning the
 * document on load; we only ever call `Prism.tokenize`.
 */
(window as unknown as { Prism: object }).Prism = { manual: true, disableWorkerMessageHandler: true };

export {};
