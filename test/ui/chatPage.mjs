/** The chat's page inside a real workbench (either host): where the caret is, which pages are on screen. */

/** Waits until the caret is in the chat's prompt box (and the page has focus). */
export function caretInComposer(frame) {
  return frame.waitForFunction(
    () =>
      document.hasFocus() &&
      document.querySelector('acp-chat-app')?.shadowRoot?.querySelector('acp-chat-composer')?.shadowRoot?.activeElement
        ?.localName === 'textarea',
    undefined,
    { timeout: 10_000 },
  );
}

/** The chat pages on screen, left to right (an editor's before the Secondary Side Bar's). */
export async function chatFrames(page) {
  const found = [];
  for (const outer of await page.locator('iframe.webview').elementHandles()) {
    const box = await outer.boundingBox();
    const inner = await (await (await outer.contentFrame())?.$('iframe#active-frame'))?.contentFrame();
    if (box && box.width > 0 && inner && (await inner.locator('acp-chat-app').count()) > 0) {
      found.push({ x: box.x, frame: inner });
    }
  }
  return found.sort((a, b) => a.x - b.x).map((f) => f.frame);
}

/**
 * The paperclip: a quick pick over the workspace's files, searched as Go to File is; README.md, found by typing
 * "readme", is attached and the caret goes back to the box. The chip is then removed.
 */
export async function attachReadmeByPaperclip(page, frame) {
  await frame.getByRole('button', { name: 'Attach files' }).click();
  const pick = page.locator('.quick-input-widget');
  await pick.getByText('Attach to the prompt').waitFor({ timeout: 10_000 });
  await pick.locator('.quick-input-box input').fill('readme');
  await pick
    .locator('.quick-input-list .monaco-list-row.focused')
    .filter({ hasText: 'README.md' })
    .waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const chip = frame.getByRole('list', { name: 'Attachments' }).getByText('README.md', { exact: true });
  await chip.waitFor({ timeout: 10_000 });
  await caretInComposer(frame);
  await frame.getByRole('button', { name: 'Remove README.md' }).click();
  await chip.waitFor({ state: 'detached', timeout: 10_000 });
}
