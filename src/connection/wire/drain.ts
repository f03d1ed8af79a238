/**
 * The SDK runs notification handlers a few microtasks behind responses; with
 * real agents the last `session/update`s of a turn were seen landing after the
 * `session/prompt` promise settled (Claude Code's and Gemini CLI's adapters). Waiting one macrotask lets every
 * notification that arrived before the response be handled first. (Our test
 * agent and in-memory streams do not reproduce the race, so no test pins it.)
 */
export function afterPendingNotifications(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
