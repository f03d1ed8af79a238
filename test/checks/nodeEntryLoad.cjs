/**
 * The built Node entry, loaded as VS Code's Node extension host loads it, must not read the global `navigator`:
 * that host reports every read as an error (PendingMigrationError), at every start. zod reads it when a schema is
 * defined unless it is configured first (src-node/zodConfig.ts). `vscode` is a stub here: only loading is checked.
 *
 *   node test/checks/nodeEntryLoad.cjs [dist/node/extension.js]
 */
const Module = require('node:module');
const path = require('node:path');

const entry = path.resolve(process.argv[2] ?? path.join(__dirname, '../../dist/node/extension.js'));
const stub = new Proxy(function () {}, {
  get: (_, key) => (key === 'then' ? undefined : stub),
  apply: () => stub,
  construct: () => stub,
});
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? stub : load.call(this, request, ...rest);
};
let reads = 0;
Object.defineProperty(globalThis, 'navigator', {
  configurable: true,
  get() {
    reads++;
    return undefined;
  },
});
require(entry);
if (reads > 0) {
  console.error(`${path.relative(process.cwd(), entry)} read navigator ${reads} time(s) while loading`);
  process.exit(1);
}
console.log(`${path.relative(process.cwd(), entry)} loads without reading navigator`);
