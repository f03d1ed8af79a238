/**
 * The sign-in methods of an `initialize` answer as this client can carry
 * them out, parsed here (they are the agent's, untrusted, and the SDK passes
 * responses through as they came). signIn.ts asks and acts.
 */
import { z } from 'zod';

const text = (max: number) => z.string().max(max);
/** A variable the sign-in program may be given: not one that changes how programs load or run. */
const variableName = z
  .string()
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
  .refine(
    (n) =>
      !/^(LD_|DYLD_)/i.test(n) &&
      ![
        'PATH',
        'NODE_OPTIONS',
        'NODE_PATH',
        'PYTHONPATH',
        'PYTHONSTARTUP',
        'BASH_ENV',
        'ENV',
        'PERL5OPT',
        'RUBYOPT',
        'HOME',
        'SHELL',
        'COMSPEC',
      ].includes(n.toUpperCase()),
  );
const args = z.array(text(4_096)).max(64);
const env = z.record(variableName, text(4_096)).refine((e) => Object.keys(e).length <= 32);
const common = { id: text(256).min(1), name: text(200).min(1), description: text(1_000).nullish() };

const terminalMethod = z.object({
  ...common,
  type: z.literal('terminal'),
  args: args.default([]),
  env: env.default({}),
});
const envVarMethod = z.object({
  ...common,
  type: z.literal('env_var'),
  vars: z
    .array(z.object({ name: variableName }))
    .min(1)
    .max(8),
});
const agentMethod = z.object({
  ...common,
  type: z.literal('agent').optional(),
  _meta: z
    .object({
      'terminal-auth': z.object({ command: text(4_096), args: args.default([]), env: env.optional() }).optional(),
    })
    .passthrough()
    .nullish(),
});

/** A sign-in this client can carry out. */
export type SignInChoice =
  | { readonly kind: 'agent'; readonly id: string; readonly name: string; readonly description?: string }
  /** `args` go after the agent's configured arguments (ACP's `terminal`), or instead of them (the legacy `_meta`). */
  | {
      readonly kind: 'terminal';
      readonly id: string;
      readonly name: string;
      readonly description?: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly replaceArgs: boolean;
    }
  | {
      readonly kind: 'env_var';
      readonly id: string;
      readonly name: string;
      readonly description?: string;
      readonly vars: readonly string[];
    };

/**
 * The choices in `methods` (an `initialize` answer's `authMethods`, as sent).
 * Terminal methods only where the host runs them; a legacy `_meta` method
 * only when the program it names is the agent's own (`agentCommand`, by file
 * name). Anything that does not parse is left out.
 */
export function signInChoices(methods: unknown, options: { terminal: boolean; agentCommand?: string }): SignInChoice[] {
  if (!Array.isArray(methods)) return [];
  const choices: SignInChoice[] = [];
  for (const raw of methods.slice(0, 32)) {
    const type = (raw as { type?: unknown } | null)?.type;
    const description = (d: string | null | undefined) => (d ? { description: d } : {});
    if (type === 'terminal') {
      const m = terminalMethod.safeParse(raw);
      if (m.success && options.terminal) {
        choices.push({
          kind: 'terminal',
          id: m.data.id,
          name: m.data.name,
          ...description(m.data.description),
          args: m.data.args,
          env: m.data.env,
          replaceArgs: false,
        });
      }
    } else if (type === 'env_var') {
      const m = envVarMethod.safeParse(raw);
      if (m.success) {
        choices.push({
          kind: 'env_var',
          id: m.data.id,
          name: m.data.name,
          ...description(m.data.description),
          vars: m.data.vars.map((v) => v.name),
        });
      }
    } else if (type === undefined || type === 'agent') {
      const m = agentMethod.safeParse(raw);
      if (!m.success) continue;
      const legacy = m.data._meta?.['terminal-auth'];
      if (legacy && options.terminal && options.agentCommand && sameProgram(legacy.command, options.agentCommand)) {
        choices.push({
          kind: 'terminal',
          id: m.data.id,
          name: m.data.name,
          ...description(m.data.description),
          args: legacy.args,
          env: legacy.env ?? {},
          replaceArgs: true,
        });
      } else if (!legacy || !options.terminal) {
        choices.push({ kind: 'agent', id: m.data.id, name: m.data.name, ...description(m.data.description) });
      }
    }
    // Other (future, custom) types: not offered.
  }
  return choices;
}

function sameProgram(a: string, b: string): boolean {
  const name = (p: string) =>
    p
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(exe|cmd|com)$/i, '')
      .toLowerCase();
  return name(a) !== '' && name(a) === name(b);
}
