// Scripted ACP test agent over stdio.
// Usage: node dist/test/agent.js <scenario.json | inline JSON>   (or env ACP_TEST_SCENARIO)
import { createAgent } from "./agent";
import { log, stdioStream } from "./io";
import { loadScenario, ScenarioError, type Scenario } from "./scenario";

const USAGE = "usage: agent.js <scenario.json | '{...inline scenario...}'> (or env ACP_TEST_SCENARIO)";

function scenarioFromArgs(): Scenario {
  const source = process.argv[2] ?? process.env.ACP_TEST_SCENARIO;
  if (!source) throw new ScenarioError(`no scenario given; ${USAGE}`);
  return loadScenario(source);
}

function main(): void {
  let scenario: Scenario;
  try {
    scenario = scenarioFromArgs();
  } catch (error) {
    log(error instanceof ScenarioError ? error.message : String(error));
    process.exit(2);
  }
  // The client went away: nothing left to do.
  process.stdout.on("error", () => process.exit(0));
  const connection = createAgent(scenario).connect(stdioStream());
  void connection.closed.then(() => process.exit(0));
}

main();
