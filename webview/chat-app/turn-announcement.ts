import type { Entry } from '../../src/shared/thread/thread';

/**
 * What to tell a screen reader user when a turn ends: how it ended, from the
 * notice the thread adds when a turn does not simply finish ("Stopped.", a
 * limit), else that the agent finished. An error notice is an ARIA alert that
 * reads its own text, so the announcement only says that the turn failed.
 */
export function turnEndAnnouncement(entries: readonly Entry[], turnStart: number): string {
  const last = entries[entries.length - 1];
  if (entries.length > turnStart && last?.kind === 'notice') {
    return last.level === 'error' ? 'The agent stopped with an error.' : last.text;
  }
  return 'The agent finished.';
}
