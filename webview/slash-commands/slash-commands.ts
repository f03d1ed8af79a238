/**
 * The slash command menu of a text box: typing "/" at the start opens a list
 * of the agent's commands, filtered as you type (CompletionMenu's keys).
 */
import { html, nothing } from 'lit';
import { CompletionMenu } from '../completion-menu/completion-menu';
import { matchCommands, type SlashCommand } from './match-commands';

export class SlashCommandMenu extends CompletionMenu<SlashCommand> {
  /** The agent's commands (from `available_commands_update`). */
  commands: readonly SlashCommand[] = [];

  /** `host` re-renders the menu; `insert` puts the chosen command into the text box. */
  constructor(host: { requestUpdate(): void }, insert: (text: string) => void) {
    super(host, {
      id: 'slash-command',
      label: 'Slash commands',
      renderOption: (
        c,
      ) => html`<span class="slash-name">/${c.name}</span>${c.hint ? html` <span class="slash-hint">${c.hint}</span>` : nothing}
        <span class="slash-description">${c.description}</span>`,
      tooltip: (c) => `/${c.name}${c.hint ? ` ${c.hint}` : ''}: ${c.description}`,
      choose: (c) => insert(`/${c.name} `),
    });
  }

  /** Call with the text box's value after every edit. */
  textChanged(value: string): void {
    // Only while the first word is being typed: "/na" opens, "/name args" does not.
    const typing = /^\/(\S*)$/.exec(value);
    const query = typing ? typing[1] : undefined;
    this.show(query, query === undefined ? [] : matchCommands(this.commands, query));
  }
}
