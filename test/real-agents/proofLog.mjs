/**
 * The output of a proof script (sdkClient.mjs of each agent): timed lines, and `ok`/`FAIL` per
 * expectation; `failures` lists what failed (exit non-zero when it is not empty); `t0` is when it
 * started (for the times in a dump).
 */
export function proofLog() {
  const t0 = Date.now();
  const failures = [];
  const say = (line) => process.stdout.write(`[+${((Date.now() - t0) / 1000).toFixed(2)}s] ${line}\n`);
  const expect = (cond, what) => {
    if (!cond) failures.push(what);
    say(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
    return cond;
  };
  return { t0, say, expect, failures };
}
