import * as assert from 'node:assert/strict';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import {
  choicesFor,
  optionFor,
  PERMISSION_LABELS,
  permissionChoiceSchema,
  permissionPromptSchema,
} from '../../../../src/shared/permissions';

const option = (kind: PermissionOption['kind'], optionId: string = kind): PermissionOption => ({
  optionId,
  name: `agent says ${kind}`,
  kind,
});

describe('permission prompts: the buttons and what each answers', () => {
  it("offers a button only for what the agent's options allow, always in the same order", () => {
    assert.deepEqual(choicesFor([]), []);
    assert.deepEqual(choicesFor([option('reject_once'), option('allow_always'), option('allow_once')]), [
      'allow_once',
      'allow_always',
      'reject',
    ]);
    assert.deepEqual(choicesFor([option('allow_once')]), ['allow_once']);
    assert.deepEqual(choicesFor([option('allow_always')]), ['allow_always']);
    assert.deepEqual(choicesFor([option('reject_once')]), ['reject']);
    assert.deepEqual(choicesFor([option('reject_always')]), ['reject']);
    assert.deepEqual(choicesFor([option('reject_always'), option('reject_once')]), ['reject']);
    assert.deepEqual(choicesFor([option('allow_once'), option('reject_always')]), ['allow_once', 'reject']);
    assert.deepEqual(choicesFor([{ optionId: 'x', name: 'x', kind: 'something_new' as never }]), []);
  });

  it("answers with the agent's option of that kind; Reject prefers rejecting once", () => {
    const all = [
      option('allow_always', 'always'),
      option('reject_always', 'never'),
      option('allow_once', 'once'),
      option('reject_once', 'not-now'),
    ];
    assert.equal(optionFor(all, 'allow_once')?.optionId, 'once');
    assert.equal(optionFor(all, 'allow_always')?.optionId, 'always');
    assert.equal(optionFor(all, 'reject')?.optionId, 'not-now');
    assert.equal(optionFor([option('reject_always', 'never')], 'reject')?.optionId, 'never');
    assert.equal(
      optionFor([option('allow_once', 'first'), option('allow_once', 'second')], 'allow_once')?.optionId,
      'first',
    );
    // Never an option of another kind.
    assert.equal(optionFor([option('allow_once')], 'allow_always'), undefined);
    assert.equal(optionFor([option('allow_always')], 'allow_once'), undefined);
    assert.equal(optionFor([option('allow_once'), option('allow_always')], 'reject'), undefined);
    assert.equal(optionFor([option('reject_once')], 'allow_once'), undefined);
  });

  it("labels the buttons with the extension's words, never the agent's", () => {
    assert.deepEqual(PERMISSION_LABELS, {
      allow_once: 'Allow once',
      allow_always: 'Always allow',
      reject: 'Reject',
    });
  });

  it('takes a prompt for the page only in its own shape', () => {
    assert.deepEqual(
      ['allow_once', 'allow_always', 'reject'].map((c) => permissionChoiceSchema.safeParse(c).success),
      [true, true, true],
    );
    for (const c of ['reject_once', 'allow', '', 'Allow once']) {
      assert.equal(permissionChoiceSchema.safeParse(c).success, false, c);
    }
    const tool = {
      kind: 'tool',
      id: 't',
      toolCallId: 'c1',
      title: 'Write a.txt',
      status: 'pending',
      toolKind: 'edit',
      content: [],
      locations: [],
    };
    const prompt = { requestId: 'r1', tool, choices: ['allow_once', 'reject'], agentOptions: ['Yes', 'No'] };
    const parsed = permissionPromptSchema.safeParse(prompt);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    for (const bad of [
      { ...prompt, requestId: 1 },
      { ...prompt, choices: ['allow_once', 'run_anything'] },
      { ...prompt, agentOptions: [1] },
      { ...prompt, tool: undefined },
    ]) {
      assert.equal(permissionPromptSchema.safeParse(bad).success, false, JSON.stringify(bad).slice(0, 80));
    }
  });
});
