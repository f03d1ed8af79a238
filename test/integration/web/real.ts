/**
 * The real-agents stage's run in the web worker extension host (test/real-agents/webHost.mjs): a real agent, served
 * by the real bridge next to it, whose URL the harness left in the folder with what the test is to check.
 */
import 'mocha/mocha';

export function run(): Promise<void> {
  mocha.setup({ ui: 'bdd', reporter: undefined, timeout: 240_000 });
  require('./realEditor.test');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} real-agent test(s) failed`)) : resolve()));
  });
}
