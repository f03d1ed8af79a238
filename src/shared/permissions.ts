/**
 * Permission prompts as the view shows them. The buttons carry the
 * extension's own labels, mapped to the agent's options by their `kind`;
 * the agent's option names are shown only as inert text.
 */
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { z } from 'zod/mini';
import { toolEntrySchema } from './thread/thread';

export const permissionChoiceSchema = z.enum(['allow_once', 'allow_always', 'reject']);
export type PermissionChoice = z.infer<typeof permissionChoiceSchema>;

/** The extension's labels: never the agent's. */
export const PERMISSION_LABELS: Record<PermissionChoice, string> = {
  allow_once: 'Allow once',
  // How far "always" reaches is the option's: the agent's (its alwaysScope), or ours for the terminals we run.
  allow_always: 'Always allow',
  reject: 'Reject',
};

export const permissionPromptSchema = z.object({
  requestId: z.string(),
  /** What is asked, as a tool call (title, kind, locations, diff, command). */
  tool: toolEntrySchema,
  choices: z.array(permissionChoiceSchema),
  /** The agent's own option names, shown as text beside the buttons. */
  agentOptions: z.array(z.string()),
  /** The name of the option Always allow answers with: how far "always" reaches (e.g. which commands), shown as text. */
  alwaysScope: z.optional(z.string()),
});
export type PermissionPrompt = z.infer<typeof permissionPromptSchema>;

/** The choices the agent's options allow, in button order. */
export function choicesFor(options: readonly PermissionOption[]): PermissionChoice[] {
  const kinds = new Set(options.map((o) => o.kind));
  const choices: PermissionChoice[] = [];
  if (kinds.has('allow_once')) choices.push('allow_once');
  if (kinds.has('allow_always')) choices.push('allow_always');
  if (kinds.has('reject_once') || kinds.has('reject_always')) choices.push('reject');
  return choices;
}

/** The agent's option for a choice; `reject` prefers rejecting once. */
export function optionFor(
  options: readonly PermissionOption[],
  choice: PermissionChoice,
): PermissionOption | undefined {
  const kinds = choice === 'reject' ? ['reject_once', 'reject_always'] : [choice];
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}
