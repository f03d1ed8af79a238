/**
 * Every setting of the extension (under `vscode-acp.`): its type, its
 * default, who may set it, and whether a change restarts the running agents.
 * package.json's `contributes.configuration` (and its `restrictedConfigurations`)
 * declares the same; test/unit/src/settings/settings.test.ts holds the two
 * together. Read them through settings.ts, never by a string key of your own.
 *
 * Who may set it, because a cloned repository's `.vscode/settings.json` is
 * the attacker's as much as the agent's output is: a setting that names where
 * to connect, what to run or what to send is either the user's alone
 * (`scope: 'application'`, read from the user's settings whatever a workspace
 * holds) or `restricted` (a workspace's value counts only once the user
 * trusted the folder, as a trusted folder's tasks do).
 */

export const SETTINGS = {
  agents: { type: 'object', default: {}, restartsAgents: true, restricted: true },
  agentPaths: { type: 'object', default: {}, restartsAgents: true, restricted: true },
  defaultAgent: { type: 'string', default: '', restricted: true },
  mcpServers: { type: 'array', default: [], scope: 'resource', restricted: true },
  'diagnostics.enabled': { type: 'boolean', default: false },
  // The bridge's token goes to this address: a trusted repository must not redirect it either.
  'bridge.url': { type: 'string', default: 'ws://127.0.0.1:7878/acp', scope: 'application', restartsAgents: true },
  'protocol.v2': { type: 'boolean', default: false, restartsAgents: true },
  'sessions.autoSave': { type: 'boolean', default: true },
  'sessions.maxHistory': { type: 'integer', default: 50 },
  'checkpoints.maxStorageMB': { type: 'integer', default: 1024 },
  'checkpoints.exclude': { type: 'array', default: ['node_modules', '.venv', 'target', 'dist', 'build'] },
  // Where chats' worktrees are made (empty: the extension's global storage); the user's alone: a repository must not
  // put an agent's checkout inside the workspace, or anywhere else.
  'worktrees.location': { type: 'string', default: '', scope: 'application' },
  notifications: { type: 'string', default: 'whenHidden', enum: ['never', 'whenHidden', 'always'] },
  // What the editor server tells an agent: a repository's value counts once the user trusts it (none is served before).
  'editorServer.problems': { type: 'boolean', default: true, restricted: true },
  'editorServer.editors': { type: 'boolean', default: true, restricted: true },
  'editorServer.symbols': { type: 'boolean', default: true, restricted: true },
  'editorServer.navigation': { type: 'boolean', default: true, restricted: true },
  'editorServer.changes': { type: 'boolean', default: true, restricted: true },
} as const satisfies Record<string, SettingSpec>;

export interface SettingSpec {
  readonly type: 'object' | 'array' | 'string' | 'boolean' | 'integer';
  readonly default: unknown;
  /**
   * `resource`: a folder of a multi-root workspace may set its own; `application`: the user's settings only (VS Code
   * ignores a workspace's value, and settings.ts reads the user's value alone in case a host does not).
   */
  readonly scope?: 'resource' | 'application';
  /** A workspace's value is ignored in Restricted Mode (package.json's `restrictedConfigurations`). */
  readonly restricted?: boolean;
  readonly restartsAgents?: boolean;
  /** A string setting's only values. */
  readonly enum?: readonly string[];
}

export const SECTION = 'vscode-acp';

export type SettingKey = keyof typeof SETTINGS;

/** What reading a setting gives: its type, or `unknown` for objects and arrays (their readers check their shape). */
export type SettingValue<K extends SettingKey> = {
  string: string;
  boolean: boolean;
  integer: number;
  object: unknown;
  array: unknown;
}[(typeof SETTINGS)[K]['type']];

/** `value` if it has the setting's type, else the setting's default: a hand-edited settings.json may hold anything. */
export function checkedValue<K extends SettingKey>(key: K, value: unknown): SettingValue<K> {
  const spec: SettingSpec = SETTINGS[key];
  const fits =
    value !== undefined &&
    (spec.type === 'object' ||
      spec.type === 'array' ||
      (spec.type === 'integer' ? Number.isSafeInteger(value) : typeof value === spec.type)) &&
    (spec.enum === undefined || spec.enum.includes(value as string));
  return (fits ? value : spec.default) as SettingValue<K>;
}

/** The settings whose change restarts the running agents (their processes hold the old values). */
export const RESTARTING_SETTINGS: readonly SettingKey[] = (Object.keys(SETTINGS) as SettingKey[]).filter(
  (k) => (SETTINGS[k] as SettingSpec).restartsAgents === true,
);
