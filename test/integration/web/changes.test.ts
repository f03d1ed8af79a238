/**
 * Web host: the agent's files are on the bridge's machine, not in this
 * workspace, so the Changes bar, its checkpoints and Follow are not offered:
 * a file the agent writes shows no bar (rather than a broken one).
 */
import * as assert from '../shared/assert';
import { lastReply } from '../shared/chatWaits';
import { chatWithTestAgent } from '../shared/host';

describe('no Changes bar on the web host', function () {
  this.timeout(60_000);

  it('a file the agent writes itself lists nothing, offers no restore and no Follow', async () => {
    const chat = await chatWithTestAgent();
    await chat.composer.send('write on disk itself');
    assert.equal(lastReply(chat), '[disk write ok]');
    assert.deepEqual(chat.status.changes, { files: [], total: 0, busy: false });
    assert.deepEqual(chat.status.checkpoints, []);
    assert.equal(chat.status.follow, undefined);
  });
});
