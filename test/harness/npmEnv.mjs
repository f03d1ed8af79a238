// The environment of an npm install that our scripts start themselves (the tool cache, agents).
//
// Under `npm test` or `npm start`, npm hands its own state to the script as environment
// variables (npm_config_*, npm_package_*, npm_lifecycle_*, npm_execpath, INIT_CWD, ...), and a
// nested npm reads every npm_config_* as its own configuration. That broke a fresh machine:
// npm_config_user_agent names the parent's Node ("node/v20"), and code-server's postinstall reads
// its Node version from it, so it refused to install under Node 24.
//
// So a nested install gets none of it, except what says how to reach the registry (its address,
// proxies, TLS, the cache and which config files to read): a user who set those for `npm test`
// on the command line or in the environment needs them for the nested install too. Everything
// else the nested npm reads from the same config files itself.
const KEEP =
  /^npm_config_(registry|@[^:]+:registry|userconfig|globalconfig|cache|cafile|ca|cert|key|strict_ssl|proxy|https_proxy|noproxy|offline|prefer_offline|prefer_online|fetch_retries|fetch_retry_factor|fetch_retry_mintimeout|fetch_retry_maxtimeout|fetch_timeout)$/i;
const NPM_STATE = /^(npm_|init_cwd$|node$)/i;

/**
 * `env` without the npm state a parent npm exported, plus `extra`.
 * @param {Record<string, string | undefined>} [extra]
 * @param {NodeJS.ProcessEnv} [env]
 */
export function nestedNpmEnv(extra = {}, env = process.env) {
  const out = {};
  for (const [name, value] of Object.entries(env)) {
    if (NPM_STATE.test(name) && !KEEP.test(name)) continue;
    out[name] = value;
  }
  return { ...out, ...extra };
}
