/**
 * Proof outside VS Code: a plain ACP SDK client drives Kilo Code's CLI (`kilo acp`, agent.mjs)
 * through the real-agent scenario against the fake Chat Completions endpoint (sdkProof.mjs says
 * which steps), and looks at what is Kilo's own: a write or an edit is asked with its diff, often
 * before the call is announced (`tool_call`; an edit's order varies from run to run: say which),
 * then written through `fs/write_text_file`, and Kilo writes the file itself too (run with
 * WRITE=skip: the client's write handler then writes nothing, and the files are still written).
 *
 *   node test/real-agents/kilo/sdkClient.mjs     # VERBOSE=1, WRITE=skip, KEEP=1 (see sdkProof.mjs)
 *
 * Exit code 0 when every expectation held.
 */
import { REAL_AGENTS } from '../agents.mjs';
import { sdkProof } from '../sdkProof.mjs';

const proof = await sdkProof(REAL_AGENTS.kilo);
const { expect, say } = proof;
try {
  await proof.play((step, got) => {
    if (step !== 'create' && step !== 'edit') return;
    const asked = got.events.findIndex((e) => e.method === 'session/request_permission');
    const id = got.events[asked]?.params.toolCall.toolCallId;
    const announced = got.events.findIndex(
      (e) => e.update?.sessionUpdate === 'tool_call' && e.update.toolCallId === id,
    );
    // Seen both ways in one run (create: always first so far; edit: either): Kilo's permission and its
    // tool part come from two event streams, so the client must take either order.
    expect(asked >= 0 && announced >= 0, `${step}: asked and announced`);
    say(`  ${step}: the permission came ${asked < announced ? 'before' : 'after'} the call was announced`);
    const order = got.sequence.split(', ');
    expect(order.includes('fs/write_text_file'), `${step}: written through fs/write_text_file`);
  });
} catch (error) {
  expect(false, `the scenario ran: ${error?.stack ?? error}`);
}
process.exit(await proof.finish());
