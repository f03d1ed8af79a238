/**
 * Agent terminals (`terminal/*`), host side: plain Node, no vscode. The
 * extension wires them to the ACP connection and asks the user for consent:
 *
 *   const slot = host.reserve();                       // 'too-many' before anyone is asked
 *   const launch = await prepareLaunch(request, { root, env: process.env });
 *   // ask with describeLaunch(launch); remember launchKey(launch) for "always allow"
 *   refused ? slot.release() : await host.create(launch, slot);
 */
export { describeLaunch, launchKey } from './launch/describeLaunch';
export { agentMaySet, hostMayPass } from './launch/envAllowlist';
export { TerminalError, isTerminalError, type TerminalErrorCode } from './errors';
export type { Disposable, Event } from './listeners';
export { prepareLaunch, type LaunchContext, type LaunchRequest, type PreparedLaunch } from './launch/prepareLaunch';
export type { SlotReservation } from './slots';
export type { TerminalOutput } from './terminal';
export { TerminalHost, type TerminalHostOptions } from './terminalHost';
