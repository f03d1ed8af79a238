/**
 * What every real agent's environment has: a throwaway HOME with the XDG folders inside it, no
 * proxy (the fake model is on 127.0.0.1), no colours, and the inherited variables in `clear` set
 * empty (the agent inherits the extension host's environment: a developer's shell could carry
 * other providers, keys, models or config into it). Each agent.mjs lays its own on top.
 */
import * as path from 'node:path';

const PROXIES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'];

export function offlineEnv(home, clear = []) {
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    NO_COLOR: '1',
    ...Object.fromEntries([...clear, ...PROXIES].map((name) => [name, ''])),
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}
