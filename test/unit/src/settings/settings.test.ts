import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  checkedValue,
  RESTARTING_SETTINGS,
  SECTION,
  SETTINGS,
  type SettingKey,
  type SettingSpec,
} from '../../../../src/settings/settingsTable';

const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const declared = Object.entries(
  manifest.contributes.configuration.properties as Record<
    string,
    { type: string; default: unknown; scope?: string; enum?: string[] }
  >,
);
const restrictedInManifest: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
const spec = (key: SettingKey): SettingSpec => SETTINGS[key];

describe('settings', () => {
  it('are the ones package.json declares, with the same type, default and scope', () => {
    assert.deepEqual(
      declared.map(([key]) => key).sort(),
      Object.keys(SETTINGS)
        .map((k) => `${SECTION}.${k}`)
        .sort(),
    );
    for (const [key, d] of declared) {
      const spec: SettingSpec = SETTINGS[key.slice(SECTION.length + 1) as SettingKey];
      assert.deepEqual(
        { type: d.type, default: d.default, scope: d.scope, enum: d.enum },
        { type: spec.type, default: spec.default, scope: spec.scope, enum: spec.enum && [...spec.enum] },
        key,
      );
    }
  });

  it("that a workspace may not set in Restricted Mode are package.json's restrictedConfigurations", () => {
    assert.deepEqual(
      [...restrictedInManifest].sort(),
      (Object.keys(SETTINGS) as SettingKey[])
        .filter((k) => spec(k).restricted)
        .map((k) => `${SECTION}.${k}`)
        .sort(),
    );
  });

  // What a cloned repository's .vscode/settings.json must not decide: where to connect (and send the prompts and the
  // bridge token), what to run, what to send. Each is the user's alone or restricted; the bridge's address is the
  // user's alone even in a trusted folder, since its token goes wherever it points.
  it('that name where to connect, what to run or what to send are never taken from an untrusted workspace', () => {
    const decides: SettingKey[] = ['agents', 'agentPaths', 'defaultAgent', 'mcpServers', 'bridge.url'];
    for (const key of decides) {
      assert.ok(spec(key).scope === 'application' || spec(key).restricted, `${key}: the user's alone, or restricted`);
    }
    assert.equal(spec('bridge.url').scope, 'application', "the bridge's address is the user's alone");
  });

  it('restart the agents when the agents, their paths, the bridge or the protocol version change, and only then', () => {
    assert.deepEqual([...RESTARTING_SETTINGS].sort(), ['agentPaths', 'agents', 'bridge.url', 'protocol.v2']);
  });

  it('read as their default when a hand-edited value is not one of their values', () => {
    assert.equal(checkedValue('notifications', 'sometimes'), 'whenHidden');
    assert.equal(checkedValue('notifications', 'never'), 'never');
  });

  it('read as their default when a hand-edited value has the wrong type', () => {
    assert.equal(checkedValue('sessions.maxHistory', '20'), 50);
    assert.equal(checkedValue('sessions.maxHistory', 2.5), 50);
    assert.equal(checkedValue('sessions.maxHistory', 20), 20);
    assert.equal(checkedValue('sessions.autoSave', 'false'), true);
    assert.equal(checkedValue('sessions.autoSave', false), false);
    assert.equal(checkedValue('bridge.url', undefined), 'ws://127.0.0.1:7878/acp');
    assert.equal(checkedValue('defaultAgent', 42), '');
    assert.deepEqual(checkedValue('agents', { x: 1 }), { x: 1 }, 'objects are checked by their own readers');
  });
});
