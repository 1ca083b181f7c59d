import t from 'tap';
import { AppError } from '#src/core/errors.ts';
import { ConcurrencyGate, hashPassword, passwordHashing, verifyPassword } from '#src/core/passwords.ts';

/** A task that runs until released, recording how many run at once. */
function tasks() {
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const releases = new Map<number, () => void>();
  const task = (id: number) => async () => {
    running += 1;
    peak = Math.max(peak, running);
    started.push(id);
    await new Promise<void>((resolve) => releases.set(id, resolve));
    running -= 1;
    return id;
  };
  const release = async (id: number) => {
    releases.get(id)!();
    await new Promise((r) => setImmediate(r));
  };
  return { task, release, started, peak: () => peak };
}

const refusal = (p: Promise<unknown>) => p.then(() => 'ran', (e) => (e instanceof AppError ? String(e.code) : `crash: ${(e as Error).message}`));

t.test('the gate runs at most N at once, queues M in order, and refuses the rest at once', async (t) => {
  const gate = new ConcurrencyGate(2, 3);
  const { task, release, started, peak } = tasks();
  const results = Array.from({ length: 5 }, (_, i) => gate.run(task(i)));
  await new Promise((r) => setImmediate(r));
  t.same(started, [0, 1], 'two run');
  t.equal(gate.active, 2);
  t.equal(gate.queued, 3, 'three wait');
  t.notOk(gate.hasRoom(), 'no room left');

  const before = performance.now();
  t.equal(await refusal(gate.run(task(99))), 'Busy.PasswordChecks', 'the sixth is refused');
  t.ok(performance.now() - before < 50, 'at once, without waiting for a slot');

  await release(1);
  t.same(started, [0, 1, 2], 'a freed slot goes to the first in line');
  await release(0);
  t.same(started, [0, 1, 2, 3]);
  t.ok(gate.hasRoom(), 'room again');
  await release(2);
  await release(3);
  t.same(started, [0, 1, 2, 3, 4], 'the queue drains in order');
  await release(4);
  t.same(await Promise.all(results), [0, 1, 2, 3, 4], 'each gets its own result');
  t.equal(peak(), 2, 'never more than two at once');
  t.equal(gate.active, 0, 'all slots free at the end');
});

t.test('a failing task frees its slot', async (t) => {
  const gate = new ConcurrencyGate(1, 0);
  t.equal(await refusal(gate.run(async () => Promise.reject(new Error('boom')))), 'crash: boom');
  t.equal(await gate.run(async () => 'next'), 'next');
  t.equal(gate.active, 0);
});

t.test('hashing and verifying go through the shared gate, at most its concurrency at once', async (t) => {
  t.ok(passwordHashing.concurrency >= 1 && passwordHashing.queueLimit >= passwordHashing.concurrency);
  const hash = await hashPassword('Correct-Horse-9');
  let peak = 0;
  const watch = setInterval(() => (peak = Math.max(peak, passwordHashing.active)), 1);
  const burst = passwordHashing.concurrency + passwordHashing.queueLimit;
  const results = await Promise.all(Array.from({ length: burst }, (_, i) => verifyPassword(hash, i === 0 ? 'Correct-Horse-9' : `Wrong-${i}`)));
  clearInterval(watch);
  t.same(results, [true, ...Array.from({ length: burst - 1 }, () => false)], 'a full queue is served: one right, the rest wrong');
  t.ok(peak <= passwordHashing.concurrency, `at most ${passwordHashing.concurrency} at once (saw ${peak})`);
});
