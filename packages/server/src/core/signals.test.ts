import { describe, expect, it } from 'vitest';
import { defineTopic, SignalBus } from './signals.js';

const VIEWERS = defineTopic<{ version: number }>('viewers');
const log = { warn: () => undefined, info: () => undefined };

/** Two processes' buses joined by hand, as a transport joins them. */
function pair() {
  const a = new SignalBus('a');
  const b = new SignalBus('b');
  const sent: string[] = [];
  a.useTransport(async (message) => {
    sent.push(message);
    b.receive(message);
    a.receive(message); // a transport may echo a process's own publication back: it is dropped
  }, log);
  return { a, b, sent };
}

describe('the signal bus', () => {
  it("tells this process's subscribers at once, and the other process through the transport, once each", async () => {
    const { a, b } = pair();
    const heardA: number[] = [];
    const heardB: number[] = [];
    a.subscribe(VIEWERS, (p) => heardA.push(p.version));
    b.subscribe(VIEWERS, (p) => heardB.push(p.version));
    const publishing = a.publish(VIEWERS, { version: 7 });
    expect(heardA).toEqual([7]); // before the transport was awaited
    await publishing;
    expect(heardA).toEqual([7]);
    expect(heardB).toEqual([7]);
  });

  it('keeps topics apart, and stops telling a handler once unsubscribed', async () => {
    const { a, b } = pair();
    const other = defineTopic<null>('other');
    const heard: string[] = [];
    const stop = b.subscribe(VIEWERS, () => heard.push('viewers'));
    b.subscribe(other, () => heard.push('other'));
    await a.publish(other, null);
    stop();
    await a.publish(VIEWERS, { version: 1 });
    expect(heard).toEqual(['other']);
  });

  it('never throws: a failing transport or subscriber costs only that delivery', async () => {
    const bus = new SignalBus('x');
    bus.useTransport(() => Promise.reject(new Error('down')), log);
    const heard: number[] = [];
    bus.subscribe(VIEWERS, () => {
      throw new Error('bad subscriber');
    });
    bus.subscribe(VIEWERS, (p) => heard.push(p.version));
    await expect(bus.publish(VIEWERS, { version: 2 })).resolves.toBeUndefined();
    expect(heard).toEqual([2]);
    expect(() => bus.receive('not json')).not.toThrow();
  });
});
