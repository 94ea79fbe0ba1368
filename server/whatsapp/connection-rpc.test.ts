import { describe, expect, it } from 'vitest';
import { whatsappMsg } from '../../contract/whatsapp-connection';
import { BUS_PAYLOAD_MAX_BYTES, LocalBus } from '../cluster/bus';
import { AppError } from '../errors';
import {
  COMMAND_MAX_BYTES,
  type ConnectionCommand,
  ConnectionRpc,
  REPLY_TOPIC,
  RpcPayloadError,
} from './connection-rpc';

/**
 * Commands between processes carry ids and short texts, never bytes: a command or an answer holding
 * binary data, or larger than its limit, is refused before anything reaches the bus, reported, and
 * the call fails. Two processes here share an in-memory bus that hands each publication to the
 * other, as LISTEN/NOTIFY does, and counts what was published.
 */
class LinkedBus extends LocalBus {
  peer: LinkedBus | null = null;
  readonly published: Array<{ topic: string; bytes: number }> = [];

  override publish(topic: string, key: string): void {
    super.publish(topic, key);
    this.published.push({ topic, bytes: Buffer.byteLength(key) });
    const peer = this.peer;
    queueMicrotask(() => peer?.deliver(topic, key));
  }
}

function pair(run: (command: ConnectionCommand) => Promise<unknown>) {
  const caller = new LinkedBus();
  const holder = new LinkedBus();
  caller.peer = holder;
  holder.peer = caller;
  const refused: Array<{ side: string; err: RpcPayloadError; op?: string }> = [];
  const from = new ConnectionRpc(
    caller,
    'p1',
    async () => null,
    2_000,
    (err, d) => refused.push({ side: 'caller', err, op: d.op }),
  );
  const to = new ConnectionRpc(holder, 'p2', run, 2_000, (err, d) => refused.push({ side: 'holder', err, op: d.op }));
  return { caller, holder, from, to, refused };
}

const ECHO = async (c: ConnectionCommand) => ({ op: c.op, args: c.args });

describe('connection commands over the bus', () => {
  it('run on the holder and answer, ids and texts in a few hundred bytes', async () => {
    const { caller, from } = pair(ECHO);
    const message = { kind: 'image', image: { upload: '7d9f3c2e-1b7a-4a53-9a47-0f7e2c1d3b4a' }, caption: 'Oi Ana' };
    const answer = await from.call('p2', { connectionId: 'n1', op: 'send', args: ['5521998765431', message, {}] });
    expect(answer).toEqual({ op: 'send', args: ['5521998765431', message, {}] });
    expect(caller.published).toHaveLength(1);
    expect(caller.published[0].bytes).toBeLessThan(600);
  });

  it('refuse a command holding bytes: nothing is published, the call fails, the refusal is reported', async () => {
    let ran = 0;
    const { caller, from, refused } = pair(async () => {
      ran++;
      return null;
    });
    const image = { data: Buffer.alloc(10, 1), mimeType: 'image/png' };
    await expect(
      from.call('p2', { connectionId: 'n1', op: 'send', args: ['5521998765431', { kind: 'image', image }, {}] }),
    ).rejects.toBeInstanceOf(RpcPayloadError);
    // A typed array that is not a Buffer is as refused.
    await expect(
      from.call('p2', { connectionId: 'n1', op: 'send', args: [new Uint8Array([1, 2, 3])] }),
    ).rejects.toThrow(/binary data/);
    expect(caller.published).toEqual([]);
    expect(ran).toBe(0);
    expect(refused.map((r) => [r.side, r.op])).toEqual([
      ['caller', 'send'],
      ['caller', 'send'],
    ]);
  });

  it('refuse a command over the limit, while the longest text a message may have goes through', async () => {
    const { caller, from, refused } = pair(async () => 'ok');
    // 4,096 characters (as the contract counts them) of the widest kinds: emoji and accented letters.
    const longest = '😀çã'.repeat(1024);
    expect(longest.length).toBe(4096);
    await expect(
      from.call('p2', { connectionId: 'n1', op: 'send', args: ['5521998765431', { kind: 'text', text: longest }] }),
    ).resolves.toBe('ok');
    for (const p of caller.published) expect(p.bytes).toBeLessThanOrEqual(BUS_PAYLOAD_MAX_BYTES);
    const before = caller.published.length;
    const huge = 'a'.repeat(COMMAND_MAX_BYTES);
    await expect(
      from.call('p2', { connectionId: 'n1', op: 'send', args: ['5521998765431', { kind: 'text', text: huge }] }),
    ).rejects.toThrow(/at most 32768/);
    expect(caller.published).toHaveLength(before);
    expect(refused.map((r) => r.side)).toEqual(['caller']);
  });

  it('refuse an answer holding bytes: the holder answers the refusal instead, and reports it', async () => {
    const { holder, from, refused } = pair(async () => ({ data: Buffer.alloc(1_000_000) }));
    await expect(from.call('p2', { connectionId: 'n1', op: 'listGroups', args: [] })).rejects.toThrow(
      /connection command refused: binary data/,
    );
    expect(holder.published.map((p) => p.topic)).toEqual([REPLY_TOPIC]);
    expect(holder.published[0].bytes).toBeLessThan(600);
    expect(refused.map((r) => [r.side, r.op])).toEqual([['holder', 'listGroups']]);
  });

  it('refuse an answer too long for the bus: the caller gets a pt-BR refusal, not a fault', async () => {
    const groups = Array.from({ length: 6000 }, (_, i) => ({ id: `${i}@g.us`, name: `Grupo ${'x'.repeat(80)} ${i}` }));
    const { from, refused } = pair(async () => groups);
    const call = from.call('p2', { connectionId: 'n1', op: 'listGroups', args: [] });
    await expect(call).rejects.toBeInstanceOf(AppError);
    await expect(call).rejects.toMatchObject({ code: 'CONFLICT', message: whatsappMsg.answerTooLarge });
    expect(refused.map((r) => [r.side, r.op, r.err.tooLarge])).toEqual([['holder', 'listGroups', true]]);
  });

  it('cut a long answer into parts the bus accepts, and put it together again', async () => {
    const members = Array.from({ length: 1024 }, (_, i) => ({
      id: `55219${String(i).padStart(8, '0')}@s.whatsapp.net`,
      phone: `55219${String(i).padStart(8, '0')}`,
      name: `Participante ${i}`,
      isAdmin: i === 0,
    }));
    const { holder, from } = pair(async () => members);
    await expect(from.call('p2', { connectionId: 'n1', op: 'groupParticipants', args: ['g1'] })).resolves.toEqual(
      members,
    );
    expect(holder.published.length).toBeGreaterThan(1);
    for (const p of holder.published) {
      expect(p.topic).toBe(REPLY_TOPIC);
      expect(p.bytes).toBeLessThanOrEqual(BUS_PAYLOAD_MAX_BYTES);
    }
  });
});
