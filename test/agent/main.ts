// Scripted ACP test agent over stdio.
// Usage: node dist/test/agent.js <scenario.json | inline JSON> [--sessions DIR]   (or env ACP_TEST_SCENARIO)
import { createAgent } from "./agent";
import { log, stdioStream } from "./io";
import { loadScenario, ScenarioError, type Scenario } from "./scenario";
import { SessionStore } from "./sessionStore";

const USAGE = "usage: agent.js <scenario.json | '{...inline scenario...}'> [--sessions DIR] (or env ACP_TEST_SCENARIO)";

function parseArgs(): { scenario: Scenario; store?: SessionStore } {
  const args = process.argv.slice(2);
  let store: SessionStore | undefined;
  const at = args.indexOf("--sessions");
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

function main(): void {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs();
  } catch (error) {
    log(error instanceof ScenarioError ? error.message : String(error));
    process.exit(2);
  }
  // The client went away: nothing left to do.
  process.stdout.on("error", () => process.exit(0));
  const connection = createAgent(parsed.scenario, parsed.store).connect(stdioStream());
  void connection.closed.then(() => process.exit(0));
}

main();
