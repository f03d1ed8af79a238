// Scripted ACP test agent over stdio.
// Usage: node dist/test/agent.js <scenario.json | inline JSON> [--sessions DIR]   (or env ACP_TEST_SCENARIO)
import { writeFileSync } from 'node:fs';
import { createAgent } from './agent';
import { log, stdioStream } from './io';
import { loadScenario, ScenarioError, type Scenario } from './scenario';
import { SessionStore } from './sessionStore';

const USAGE = "usage: agent.js <scenario.json | '{...inline scenario...}'> [--sessions DIR] (or env ACP_TEST_SCENARIO)";

function parseArgs(): { scenario: Scenario; store?: SessionStore } {
  const args = process.argv.slice(2);
  let store: SessionStore | undefined;
  const at = args.indexOf('--sessions');
  if (at >= 0) {
    const dir = args[at + 1];
    if (!dir) throw new ScenarioError(`--sessions needs a folder; ${USAGE}`);
    store = new SessionStore(dir);
    args.splice(at, 2);
  }
  const source = args[0] ?? process.env.ACP_TEST_SCENARIO;
  if (!source) throw new ScenarioError(`no scenario given; ${USAGE}`);
  return { scenario: loadScenario(source), store };
}

/** `--sign-in`: the scenario's terminal sign-in (see signInFile), as a real agent's login program runs. */
function signIn(scenario: Scenario): never {
  if (!scenario.signInFile) {
    log('this scenario has no signInFile');
    process.exit(2);
  }
  // A canary the tests look for everywhere afterwards (from the environment: never in a setting).
  const canary = process.env.ACP_TEST_SIGNIN_CANARY;
  process.stdout.write(`${scenario.signInOutput}${canary ? ` ${canary}` : ''}\n`);
  writeFileSync(scenario.signInFile, 'signed in\n');
  process.exit(0);
}

function main(): void {
  const signingIn = process.argv.indexOf('--sign-in');
  if (signingIn >= 0) process.argv.splice(signingIn, 1);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs();
  } catch (error) {
    log(error instanceof ScenarioError ? error.message : String(error));
    process.exit(2);
  }
  if (signingIn >= 0) signIn(parsed.scenario);
  // The client went away: nothing left to do.
  process.stdout.on('error', () => process.exit(0));
  const connection = createAgent(parsed.scenario, parsed.store).connect(stdioStream());
  void connection.closed.then(() => process.exit(0));
}

main();
