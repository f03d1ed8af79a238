// The scripted agent served over ACP's standard remote transport (standardServe.ts), as a process for the node and
// web stages. Usage: node dist/test/standardServer.js <scenario.json | inline JSON>; prints "serving ws://…/acp"
// (and the same agent over Streamable HTTP: "http://…/acp").
import { loadScenario } from './scenario';
import { serveScenario } from './standardServe';

const source = process.argv[2];
if (!source) {
  process.stderr.write('usage: standardServer.js <scenario.json | inline JSON>\n');
  process.exit(2);
}
void serveScenario(loadScenario(source)).then((served) => {
  process.stdout.write(`serving ${served.url} ${served.httpUrl}\n`);
  process.on('SIGTERM', () => void served.close().finally(() => process.exit(0)));
});
