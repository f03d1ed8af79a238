/**
 * Plan rate limits an agent reports beside its context use. Claude Code's
 * adapter puts one window per `usage_update` in `_meta["_claude/rateLimit"]`
 * (`rateLimitType` five_hour, seven_day, ...; `utilization` a fraction of the
 * window, which can pass 1; `resetsAt` in epoch seconds; `status` allowed,
 * allowed_warning or rejected), and with it every window in `unifiedWindows`
 * (Claude Code 2.1). Each window is kept by its kind until the agent reports
 * it again. Untrusted: what does not parse is left out.
 */
import { z } from 'zod/mini';

export const rateLimitSchema = z.object({
  kind: z.string().check(z.maxLength(40)),
  /** What the meter calls it: "5-hour", "7-day", ... */
  label: z.string().check(z.maxLength(40)),
  /** 0 to 1 (more: over the limit), when the agent said. */
  utilization: z.optional(z.number()),
  /** `allowed`, `warning` (near the limit) or `rejected` (at it: the agent is refused until the reset). */
  status: z.enum(['allowed', 'warning', 'rejected']),
  /** When the window resets, epoch milliseconds, when the agent said. */
  resetsAt: z.optional(z.number()),
});
export type RateLimit = z.infer<typeof rateLimitSchema>;

const LABELS: Readonly<Record<string, string>> = {
  five_hour: '5-hour',
  seven_day: '7-day',
  seven_day_opus: '7-day Opus',
  seven_day_sonnet: '7-day Sonnet',
  seven_day_overage_included: '7-day with extra usage',
  overage: 'Extra usage',
};

/**
 * `limits` with the windows in `meta` (a `usage_update`'s `_meta`) put in, by kind: the event's own window and, where
 * the agent sends them (Claude Code 2.1: `unifiedWindows`), every window it knows; `limits` itself when there is none.
 */
export function withRateLimit(limits: readonly RateLimit[] | undefined, meta: unknown): RateLimit[] | undefined {
  const windows = rateLimitsOf(meta);
  if (windows.length === 0) return limits ? [...limits] : undefined;
  const kinds = new Set(windows.map((w) => w.kind));
  const others = (limits ?? []).filter((l) => !kinds.has(l.kind));
  return [...others, ...windows].sort((a, b) => order(a.kind) - order(b.kind));
}

function rateLimitsOf(meta: unknown): RateLimit[] {
  if (typeof meta !== 'object' || meta === null) return [];
  const info = (meta as Record<string, unknown>)['_claude/rateLimit'];
  if (typeof info !== 'object' || info === null) return [];
  const { rateLimitType, unifiedWindows } = info as Record<string, unknown>;
  const windows = new Map<string, RateLimit>();
  if (typeof unifiedWindows === 'object' && unifiedWindows !== null) {
    for (const kind of Object.keys(LABELS)) {
      const window = windowOf(kind, (unifiedWindows as Record<string, unknown>)[kind]);
      if (window) windows.set(kind, window);
    }
  }
  // The event's own window, as it says it (it may say more of it than its entry among the others).
  const own = typeof rateLimitType === 'string' ? windowOf(rateLimitType, info) : undefined;
  if (own) windows.set(own.kind, own);
  return [...windows.values()];
}

function windowOf(kind: string, info: unknown): RateLimit | undefined {
  if (!Object.hasOwn(LABELS, kind) || typeof info !== 'object' || info === null) return undefined;
  const { utilization, status, resetsAt } = info as Record<string, unknown>;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  return {
    kind,
    label: LABELS[kind]!,
    ...(finite(utilization) && utilization >= 0 ? { utilization: Math.min(utilization, 10) } : {}),
    status: status === 'rejected' ? 'rejected' : status === 'allowed_warning' ? 'warning' : 'allowed',
    // Seconds (the headers' unit); a value that reads as milliseconds already is taken as such.
    ...(finite(resetsAt) && resetsAt > 0 ? { resetsAt: resetsAt < 1e12 ? resetsAt * 1000 : resetsAt } : {}),
  };
}

function order(kind: string): number {
  return Object.keys(LABELS).indexOf(kind);
}
