/**
 * Plan operations (ACP's unstable `plan_update` and `plan_removed`, which the
 * client opts into with `session.plan`): an agent keeps several plans in a
 * session, each by its id, as entries, as markdown or as a file; each update
 * replaces one plan whole, and `plan_removed` lets it go. They are the
 * session's, not a turn's: shown above the composer until removed (the older
 * `plan` update stays the running turn's).
 *
 * The SDK's stable entry checks each update against the stable schema, which
 * has no such kinds yet: the connection carries them, checked here, in a
 * `session_info_update`'s `_meta` (PLAN_OPERATION_KEY, the update as it
 * came), so that they keep their place among the other updates
 * (connection/wire/unknownUpdates.ts), and are checked where they are applied.
 * Untrusted: what does not parse is left out, and everything is bounded.
 */
import { cutText } from '../text/titleText';
import type { NamedPlan, PlanEntry } from './thread';

export const MAX_PLANS = 8;
export const MAX_PLAN_ID_CHARS = 200;
export const MAX_PLAN_ENTRIES = 200;
/** The status of the step that stands, last, for the steps of a plan left out past MAX_PLAN_ENTRIES. */
export const LEFT_OUT_STATUS = 'left_out';
/** The longest plan entry kept (in every plan: the turn's own too): a plan is a list of short steps. */
export const MAX_PLAN_ENTRY_CHARS = 2_000;
export const MAX_PLAN_MARKDOWN_CHARS = 32_000;
const MAX_PLAN_URI_CHARS = 4_096;

export type PlanOperation =
  { readonly op: 'update'; readonly plan: NamedPlan } | { readonly op: 'remove'; readonly id: string };

/** Where a plan operation rides in a `session_info_update`'s `_meta`. */
export const PLAN_OPERATION_KEY = 'vscode-acp/planOperation';

/** The plan kinds of ACP's unstable schema. */
export const PLAN_OPERATION_KINDS: ReadonlySet<string> = new Set(['plan_update', 'plan_removed']);

/** The operation of a `plan_update` or `plan_removed` update as an agent sent it, checked and bounded; else undefined. */
export function planOperationFromUpdate(update: unknown): PlanOperation | undefined {
  const u = update as { sessionUpdate?: unknown; planId?: unknown; plan?: Record<string, unknown> } | null;
  if (u?.sessionUpdate === 'plan_removed') {
    const id = planId(u.planId);
    return id === undefined ? undefined : { op: 'remove', id };
  }
  if (u?.sessionUpdate !== 'plan_update' || typeof u.plan !== 'object' || u.plan === null) return undefined;
  const plan = namedPlan(u.plan);
  return plan ? { op: 'update', plan } : undefined;
}

/** The plan operation carried in `meta` (a `session_info_update`'s `_meta`: the agent's update as it came), checked. */
export function planOperationOf(meta: unknown): PlanOperation | undefined {
  return planOperationFromUpdate((meta as Record<string, unknown> | null | undefined)?.[PLAN_OPERATION_KEY]);
}

/** `plans` after `operation`: an update replaces its plan in place (or adds it last), a removal drops it. */
export function withPlanOperation(plans: readonly NamedPlan[] | undefined, operation: PlanOperation): NamedPlan[] {
  const list = plans ?? [];
  if (operation.op === 'remove') return list.filter((p) => p.id !== operation.id);
  const { plan } = operation;
  const at = list.findIndex((p) => p.id === plan.id);
  if (at !== -1) return list.map((p, i) => (i === at ? plan : p));
  // At most MAX_PLANS: the oldest gives way.
  return [...list, plan].slice(-MAX_PLANS);
}

function planId(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_PLAN_ID_CHARS ? value : undefined;
}

/** A plan of the wire's shape (`PlanUpdateContent`), bounded; undefined when it is not one. */
function namedPlan(plan: Record<string, unknown>): NamedPlan | undefined {
  const id = planId(plan.planId);
  if (id === undefined) return undefined;
  switch (plan.type) {
    case 'items': {
      if (!Array.isArray(plan.entries)) return undefined;
      const word = (value: unknown) => (typeof value === 'string' ? value.slice(0, 40) : '');
      const entries = boundedSteps(plan.entries as unknown[], (e) => {
        const entry = e as { content?: unknown; priority?: unknown; status?: unknown } | null;
        return typeof entry?.content === 'string'
          ? {
              content: cutText(entry.content, MAX_PLAN_ENTRY_CHARS),
              priority: word(entry.priority),
              status: word(entry.status) || 'pending',
            }
          : undefined;
      });
      return { id, type: 'items', entries };
    }
    case 'markdown':
      return typeof plan.content === 'string'
        ? { id, type: 'markdown', markdown: cutText(plan.content, MAX_PLAN_MARKDOWN_CHARS) }
        : undefined;
    case 'file':
      return typeof plan.uri === 'string' && plan.uri !== '' && plan.uri.length <= MAX_PLAN_URI_CHARS
        ? { id, type: 'file', uri: plan.uri }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * A plan's steps as kept: at most MAX_PLAN_ENTRIES, the last of them saying how many more the agent sent (a plan of
 * 100,000 steps was rendered whole and stalled the workbench). `keep` reads one step, undefined for one that is not;
 * `cut`: how many the connection already cut (wireBounds.ts).
 */
export function boundedSteps<T>(steps: readonly T[], keep: (step: T) => PlanEntry | undefined, cut = 0): PlanEntry[] {
  const read = (some: readonly T[]) => some.flatMap((step) => keep(step) ?? []);
  const sent = steps.length + cut;
  if (sent <= MAX_PLAN_ENTRIES) return read(steps);
  const kept = read(steps.slice(0, MAX_PLAN_ENTRIES - 1));
  const more = sent - (MAX_PLAN_ENTRIES - 1);
  return [
    ...kept,
    { content: `${more.toLocaleString('en-US')} more steps, not shown`, priority: '', status: LEFT_OUT_STATUS },
  ];
}
