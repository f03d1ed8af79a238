/**
 * `vscode-acp-bridge`: lets VS Code for the Web reach an ACP agent on this
 * machine. Prints the URL (with its token) to paste into VS Code.
 */
import { startBridge } from './bridgeServer';
import { parseBridgeArgs, USAGE, UsageError } from './options';

async function main(): Promise<void> {
  let options;
  try {
    options = parseBridgeArgs(process.argv.slice(2), process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) process.stderr.write(`vscode-acp-bridge: ${error.message}\n\n`);
    process.stderr.write(USAGE);
    process.exit(error.message ? 2 : 0);
  }
  if (options.allowRemote) {
    process.stderr.write(
      `WARNING: listening on ${options.host}: anyone who can reach it and has the token can run the agent on this machine.\n`,
    );
  }
  const log = (line: string) => process.stderr.write(`[bridge ${new Date().toISOString()}] ${line}\n`);
  const bridge = await startBridge(options, log);
  process.stdout.write(`ACP bridge for ${options.agents.map((a) => a.name).join(', ')} in ${options.cwd}\n`);
  process.stdout.write(`Paste this into VS Code ("ACP: Connect" asks for it):\n${bridge.url}\n`);
  const stop = () => void bridge.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`vscode-acp-bridge: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
