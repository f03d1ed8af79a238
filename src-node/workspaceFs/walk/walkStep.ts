/**
 * The test-only hook both openers call between steps, so tests can swap a
 * folder for a symlink (or a file for a link) at the exact moment a real
 * attacker would have to win a race.
 */

export interface WalkStep {
  /**
   * 'lookup': about to look up `names[index]` (a folder on the way or the
   * file itself). 'open': the file was checked and is about to be opened
   * for reading or writing.
   */
  readonly phase: 'lookup' | 'open';
  readonly index: number;
  readonly name: string;
}

export type StepHook = (step: WalkStep) => void | Promise<void>;
