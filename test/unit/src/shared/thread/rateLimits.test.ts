/** Claude Code's plan rate limits in `usage_update._meta`: kept per window, hostile values left out. */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import {
  applyControlsUpdate,
  emptySessionControls,
  sessionControlsSchema,
} from '../../../../../src/shared/sessionControls';

const usage = (meta?: unknown): SessionUpdate =>
  ({ sessionUpdate: 'usage_update', used: 10, size: 100, ...(meta ? { _meta: meta } : {}) }) as SessionUpdate;
const claude = (info: unknown) => ({ '_claude/rateLimit': info, '_claude/other': 1 });

describe('rate limits in usage updates', () => {
  it('keeps each window by its kind, the newest report of each, in a fixed order; a plain update keeps them', () => {
    let controls = emptySessionControls;
    const apply = (u: SessionUpdate) => (controls = applyControlsUpdate(controls, u)!);
    apply(usage(claude({ rateLimitType: 'seven_day', utilization: 0.2, status: 'allowed', resetsAt: 1_800_000_000 })));
    apply(usage(claude({ rateLimitType: 'five_hour', utilization: 0.5, status: 'allowed_warning' })));
    apply(usage(claude({ rateLimitType: 'seven_day', utilization: 0.3, status: 'allowed' })));
    apply(usage());
    assert.deepEqual(controls.usage?.limits, [
      { kind: 'five_hour', label: '5-hour', utilization: 0.5, status: 'warning' },
      { kind: 'seven_day', label: '7-day', utilization: 0.3, status: 'allowed' },
    ]);
    apply(usage(claude({ rateLimitType: 'five_hour', status: 'rejected', resetsAt: 1_800_000_000 })));
    assert.deepEqual(controls.usage?.limits?.[0], {
      kind: 'five_hour',
      label: '5-hour',
      status: 'rejected',
      resetsAt: 1_800_000_000_000,
    });
    assert.ok(sessionControlsSchema.safeParse(controls).success);
  });

  it("takes every window of Claude Code's unifiedWindows from one report, the report's own as it says it", () => {
    const controls = applyControlsUpdate(
      emptySessionControls,
      usage(
        claude({
          rateLimitType: 'five_hour',
          status: 'allowed_warning',
          utilization: 0.8,
          resetsAt: 1_796_410_924,
          unifiedWindows: {
            five_hour: { utilization: 0.79, resetsAt: 1_796_410_924, status: 'allowed_warning' },
            seven_day: { utilization: 0.3, resetsAt: 1_796_745_724, status: 'allowed' },
            made_up: { utilization: 1, status: 'rejected' },
            __proto__: { utilization: 1, status: 'rejected' },
          },
        }),
      ),
    );
    assert.deepEqual(controls?.usage?.limits, [
      { kind: 'five_hour', label: '5-hour', utilization: 0.8, status: 'warning', resetsAt: 1_796_410_924_000 },
      { kind: 'seven_day', label: '7-day', utilization: 0.3, status: 'allowed', resetsAt: 1_796_745_724_000 },
    ]);
  });

  it('leaves out what does not parse: unknown windows, odd numbers, other shapes', () => {
    for (const info of [
      null,
      'five_hour',
      { rateLimitType: 'made_up', utilization: 0.5, status: 'allowed' },
      { rateLimitType: '__proto__', status: 'allowed' },
      { utilization: 0.5 },
    ]) {
      assert.equal(applyControlsUpdate(emptySessionControls, usage(claude(info)))?.usage?.limits, undefined);
    }
    const odd = applyControlsUpdate(
      emptySessionControls,
      usage(claude({ rateLimitType: 'five_hour', utilization: Number.NaN, status: 7, resetsAt: -5 })),
    );
    assert.deepEqual(odd?.usage?.limits, [{ kind: 'five_hour', label: '5-hour', status: 'allowed' }]);
    const huge = applyControlsUpdate(
      emptySessionControls,
      usage(claude({ rateLimitType: 'five_hour', utilization: 1e9, status: 'allowed' })),
    );
    assert.equal(huge?.usage?.limits?.[0]?.utilization, 10);
  });
});
