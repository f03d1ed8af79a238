/**
 * docs/reference.md, the commands and settings, made from package.json so that the page never drifts from what the
 * extension contributes: each command the Command Palette shows (its title, keys and what it does, from
 * commandNotes.mjs) and each setting (its default, who may set it and its description). `node tools/lint/run.mjs`
 * checks the page; `--fix` writes it.
 */
import { COMMAND_NOTES } from './commandNotes.mjs';

/** The view's focus command, which VS Code makes for the chat view (not in package.json's commands). */
const FOCUS_VIEW = {
  title: 'Focus on Agent Chat View',
  command: 'vscode-acp.chat.focus',
  note: 'Shows the chat view (VS Code makes this command for the view)',
};

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A key as VS Code writes it: `Ctrl+Alt+Shift+A`. */
function keyName(key) {
  return key
    .split(' ')
    .map((chord) =>
      chord
        .split('+')
        .map((k) => (k.length === 1 ? k.toUpperCase() : k[0].toUpperCase() + k.slice(1)))
        .join('+'),
    )
    .join(' ');
}

function keysOf(pkg, command) {
  return (pkg.contributes.keybindings ?? [])
    .filter((k) => k.command === command)
    .map((k) => (k.mac ? `${keyName(k.key)} (macOS: ${keyName(k.mac)})` : keyName(k.key)))
    .join(', ');
}

/** The commands the Command Palette shows (not hidden with `"when": "false"`), in package.json's order. */
export function paletteCommands(pkg) {
  const hidden = new Set(
    (pkg.contributes.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command),
  );
  return pkg.contributes.commands.filter((c) => !hidden.has(c.command));
}

/** What is wrong with the notes: a palette command without one, or one for a command that is not there. */
export function notesProblems(pkg, notes = COMMAND_NOTES) {
  const palette = new Set(paletteCommands(pkg).map((c) => c.command));
  return [
    ...[...palette].filter((c) => !notes[c]).map((c) => `${c} has no note in tools/docs/commandNotes.mjs`),
    ...Object.keys(notes)
      .filter((c) => !palette.has(c))
      .map((c) => `tools/docs/commandNotes.mjs has a note for ${c}, which the Command Palette does not show`),
  ];
}

function commandsTable(pkg, notes) {
  const rows = paletteCommands(pkg).map((c) => {
    const name = c.category ? `${c.category}: ${c.title}` : c.title;
    return `| ${cell(name)} | ${cell(keysOf(pkg, c.command))} | ${cell(notes[c.command] ?? '')} |`;
  });
  rows.push(`| ${FOCUS_VIEW.title} | ${cell(keysOf(pkg, FOCUS_VIEW.command))} | ${FOCUS_VIEW.note} |`);
  return ['| Command | Keys | What it does |', '| --- | --- | --- |', ...rows].join('\n');
}

/** Who may set a setting: VS Code's scope and Workspace Trust's restricted list. */
function whoSets(pkg, key, spec) {
  if (spec.scope === 'application') return 'user settings only';
  const restricted = pkg.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [];
  const where = spec.scope === 'resource' ? 'user, workspace or folder' : 'user or workspace';
  return restricted.includes(key) ? `${where} (a workspace's value once trusted)` : where;
}

function settingsTable(pkg) {
  const properties = pkg.contributes.configuration.properties ?? {};
  const rows = Object.entries(properties).map(([key, spec]) => {
    const text = spec.markdownDescription ?? spec.description ?? '';
    const values = spec.enum
      ? ` Values: ${spec.enum.map((v, i) => `\`${v}\`${spec.enumDescriptions?.[i] ? ` (${spec.enumDescriptions[i]})` : ''}`).join(', ')}.`
      : '';
    return `| \`${key}\` | \`${cell(JSON.stringify(spec.default))}\` | ${whoSets(pkg, key, spec)} | ${cell(text + values)} |`;
  });
  return ['| Setting | Default | Set in | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The page. */
export function referencePage(pkg, notes = COMMAND_NOTES) {
  return `<!-- Made from package.json by tools/docs/reference.mjs: edit those, then run node tools/lint/run.mjs --fix -->
# Commands and settings

[Back to the README](../README.md) · [The chat](chat.md) · [Review](review.md)

## Commands

Every command is in the Command Palette (Ctrl+Shift+P) under **ACP**, where it applies; the chat view's title bar
and **...** menu, the editor's and terminal's context menus and the Sessions view offer the ones that belong there.

${commandsTable(pkg, notes)}

## Settings

${settingsTable(pkg)}
`;
}
