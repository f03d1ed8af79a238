import * as assert from 'node:assert/strict';
import { RememberedControls } from '../../../../src/chat/rememberedControls';
import { controlsFromSetup } from '../../../../src/shared/sessionControls';
import { memento } from './scriptedHost';

const controls = controlsFromSetup({
  modes: {
    currentModeId: 'ask',
    availableModes: [
      { id: 'ask', name: 'Ask' },
      { id: 'code', name: 'Code' },
    ],
  },
  configOptions: [
    {
      type: 'select',
      id: 'model',
      name: 'Model',
      currentValue: 'fast',
      options: [
        { value: 'fast', name: 'Fast' },
        { value: 'smart', name: 'Smart' },
      ],
    },
    { type: 'boolean', id: 'web', name: 'Web', currentValue: false },
  ],
});

describe('remembered control choices', () => {
  it('re-applies the last choices per agent to a new session, only where they differ and still exist', () => {
    const choices = new RememberedControls(memento());
    choices.remember('a', { kind: 'config', id: 'model', value: 'smart' });
    choices.remember('a', { kind: 'config', id: 'web', value: true });
    choices.remember('a', { kind: 'mode', id: 'code' });
    choices.remember('b', { kind: 'mode', id: 'ask' });
    assert.deepEqual(choices.pending('a', controls), [
      { kind: 'config', id: 'model', value: 'smart' },
      { kind: 'config', id: 'web', value: true },
      { kind: 'mode', id: 'code' },
    ]);
    assert.deepEqual(choices.pending('b', controls), []);
    assert.deepEqual(choices.pending('never-used', controls), []);
  });

  it('drops choices the session no longer offers', () => {
    const choices = new RememberedControls(memento());
    choices.remember('a', { kind: 'config', id: 'model', value: 'retired-model' });
    choices.remember('a', { kind: 'config', id: 'gone', value: 'x' });
    choices.remember('a', { kind: 'mode', id: 'yolo' });
    choices.remember('a', { kind: 'config', id: 'web', value: 'not-a-boolean' });
    assert.deepEqual(choices.pending('a', controls), []);
  });
});

describe('remembered control choices and hostile option ids', () => {
  it('an option id such as "constructor" has no remembered value unless one was remembered', () => {
    const choices = new RememberedControls(memento());
    choices.remember('a', { kind: 'mode', id: 'code' });
    const hostile = controlsFromSetup({
      configOptions: [
        { type: 'boolean', id: 'constructor', name: 'C', currentValue: false },
        { type: 'boolean', id: '__proto__', name: 'P', currentValue: false },
      ],
    });
    assert.deepEqual(choices.pending('a', hostile), []);
  });
});
