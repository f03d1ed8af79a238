/**
 * What a valid MCP server must also be before it is sent: a stdio command
 * that is an absolute path to a program (no shell, no search path, no batch
 * file), an HTTPS URL without credentials or fragment, and variables only
 * where we resolve them: `${env:NAME}` in stdio env values and HTTP/SSE
 * header values. Resolution makes the values the agent gets.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { McpProblem } from './problems';
import { isRemote, type ServerConfig } from './serverConfig';

/** The operating system the agent (and so the MCP server) runs on; undefined when not known (the bridge). */
export type AgentOs = 'posix' | 'windows' | undefined;

const ENV_REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Why the server cannot be sent as configured, if anything. `at` is its position. */
export function serverProblem(config: ServerConfig, at: string, os: AgentOs): McpProblem | undefined {
  if (isRemote(config)) {
    if (config.url.includes('${')) return unsupportedVariable(`${at}.url`);
    const url = urlProblem(config.url);
    if (url) return { code: url.code, path: `${at}.url`, detail: url.detail };
    const bad = config.headers.findIndex((h) => !onlyEnvReferences(h.value));
    return bad >= 0 ? unsupportedVariable(`${at}.headers[${bad}].value`) : undefined;
  }
  if (config.command.includes('${')) return unsupportedVariable(`${at}.command`);
  const command = commandProblem(config.command, os);
  if (command) return { code: 'MCP_CONFIG_UNSAFE', path: `${at}.command`, detail: command };
  const arg = config.args.findIndex((a) => a.includes('${'));
  if (arg >= 0) return unsupportedVariable(`${at}.args[${arg}]`);
  const bad = config.env.findIndex((e) => !onlyEnvReferences(e.value));
  return bad >= 0 ? unsupportedVariable(`${at}.env[${bad}].value`) : undefined;
}

function unsupportedVariable(path: string): McpProblem {
  return {
    code: 'MCP_CONFIG_UNSUPPORTED',
    path,
    detail:
      'uses a variable this extension does not resolve here (only ${env:NAME}, and only in env and header values)',
  };
}

/** Every `${` starts an `${env:NAME}` reference. */
function onlyEnvReferences(value: string): boolean {
  return !value.replace(ENV_REFERENCE, '').includes('${');
}

export function commandProblem(command: string, os: AgentOs): string | undefined {
  if (/^(\\\\|\/\/)/.test(command)) {
    return "is a network (UNC) path: give the absolute path of a program on the agent's machine";
  }
  const windowsPath = /^[A-Za-z]:\\/.test(command);
  if (os === 'windows' || (os === undefined && windowsPath)) {
    if (!windowsPath) return 'should be an absolute path (C:\\...) to a program';
    if (/\.(bat|cmd)$/i.test(command)) {
      return 'is a batch file, which Windows can only run through cmd.exe: not started';
    }
    if (!/\.(exe|com)$/i.test(command)) {
      return 'should be a program (.exe or .com); run a script as an argument to its interpreter';
    }
    if (/[/"*?<>|]/.test(command.slice(2))) return 'is not a valid Windows path';
    return undefined;
  }
  if (!command.startsWith('/')) return 'should be an absolute path to a program (no search path, no shell)';
  return undefined;
}

export function urlProblem(
  text: string,
): { code: 'MCP_CONFIG_INVALID' | 'MCP_CONFIG_UNSAFE'; detail: string } | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { code: 'MCP_CONFIG_INVALID', detail: 'is not a URL' };
  }
  if (url.protocol !== 'https:') return { code: 'MCP_CONFIG_UNSAFE', detail: 'should be an https: URL' };
  if (url.username || url.password) {
    return {
      code: 'MCP_CONFIG_UNSAFE',
      detail: 'carries credentials: send them in a header instead (with ${env:NAME})',
    };
  }
  if (text.includes('#')) return { code: 'MCP_CONFIG_UNSAFE', detail: 'has a fragment (#...)' };
  return undefined;
}

/** Reads one environment variable; undefined when it is not set (or the host has no environment). */
export type EnvLookup = (name: string) => string | undefined;

/**
 * The server as the agent gets it, its references resolved; or the first
 * reference that could not be. `secrets` collects every resolved value.
 */
export function resolveServer(
  config: ServerConfig,
  at: string,
  env: EnvLookup,
  secrets: Set<string>,
  unsetDetail = 'names an environment variable that is not set where VS Code runs',
): { server: acp.McpServer } | { problem: McpProblem } {
  const values = isRemote(config) ? config.headers : config.env;
  const field = isRemote(config) ? 'headers' : 'env';
  const resolved: { name: string; value: string }[] = [];
  for (const [i, variable] of values.entries()) {
    let unset = false;
    const value = variable.value.replace(ENV_REFERENCE, (_, name: string) => {
      const found = env(name);
      if (found === undefined) unset = true;
      else secrets.add(found);
      return found ?? '';
    });
    if (unset) {
      return {
        problem: {
          code: 'MCP_ENV_UNSET',
          path: `${at}.${field}[${i}].value`,
          detail: unsetDetail,
        },
      };
    }
    resolved.push({ name: variable.name, value });
  }
  if (isRemote(config)) return { server: { type: config.type, name: config.name, url: config.url, headers: resolved } };
  return { server: { name: config.name, command: config.command, args: [...config.args], env: resolved } };
}
