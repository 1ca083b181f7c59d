import t from 'tap';
import { Autosaver, RETRY_STEPS_MS, type Draft, type SaveStatus, type SendResult } from '#islands/editor/autosave.ts';
import { countWordsInText, savedTime } from '#islands/editor/words.ts';
import { countWords } from '#src/lib/plain-text.ts';

/** A fake clock: timers run when the test advances time. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const queue = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      set: (fn: () => void, ms: number) => {
        const id = ++seq;
        queue.set(id, { at: now + ms, fn });
        return id;
      },
      clear: (id: unknown) => void queue.delete(id as number),
    },
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...queue.entries()].filter(([, v]) => v.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        queue.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        await settle();
      }
      now = until;
      await settle();
    },
    pending: () => queue.size,
  };
}
const settle = () => new Promise((r) => setImmediate(r));

function harness(results: Array<SendResult | Error> = []) {
  const clock = fakeTimers();
  const sent: Array<{ draft: Draft; articleId: number | null }> = [];
  const statuses: SaveStatus['kind'][] = [];
  let online = true;
  const saver = new Autosaver({
    articleId: null,
    delay: 3000,
    timers: clock.timers,
    isOnline: () => online,
    onStatus: (s) => statuses.push(s.kind),
    send: async (draft, articleId) => {
      sent.push({ draft, articleId });
      const next = results.shift() ?? { ok: true, articleId: 41 };
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { saver, clock, sent, statuses, setOnline: (v: boolean) => (online = v) };
}

t.test('saves 3 seconds after the last change, once, with the latest text', async (t) => {
  const h = harness();
  h.saver.change({ title: 'A', content: '<p>one</p>' });
  await h.clock.advance(2000);
  h.saver.change({ title: 'AB', content: '<p>one two</p>' });
  await h.clock.advance(2999);
  t.equal(h.sent.length, 0, 'nothing sent before 3 s of quiet');
  await h.clock.advance(1);
  t.same(h.sent, [{ draft: { title: 'AB', content: '<p>one two</p>' }, articleId: null }]);
  t.same(h.statuses, ['saving', 'saved']);
  t.equal(h.saver.articleId, 41, 'the first autosave created the article; later saves name it');
  t.equal(h.saver.pending(), false);
  h.saver.change({ title: 'ABC', content: '<p>one two</p>' });
  await h.clock.advance(3000);
  t.equal(h.sent[1]!.articleId, 41);
});

t.test('a change made while a save is on the wire is saved after it', async (t) => {
  const clock = fakeTimers();
  const sent: Draft[] = [];
  let release: () => void = () => {};
  const saver = new Autosaver({
    articleId: 7,
    timers: clock.timers,
    onStatus: () => {},
    send: (draft) => {
      sent.push(draft);
      return new Promise((resolve) => (release = () => resolve({ ok: true, articleId: 7 })));
    },
  });
  saver.change({ title: 'first', content: '' });
  await clock.advance(3000);
  t.equal(sent.length, 1);
  saver.change({ title: 'second', content: '' });
  await clock.advance(3000);
  t.equal(sent.length, 1, 'one save at a time');
  t.equal(saver.pending(), true);
  release();
  await settle();
  await clock.advance(3000);
  t.same(sent.map((d) => d.title), ['first', 'second']);
  release();
  await settle();
  t.equal(saver.pending(), false);
});

t.test('a dropped network keeps the text, retries with backoff and at once when back online', async (t) => {
  const h = harness([new TypeError('Failed to fetch'), new TypeError('Failed to fetch'), { ok: true, articleId: 9 }]);
  h.setOnline(false);
  h.saver.change({ title: 'kept', content: '<p>every keystroke</p>' });
  await h.clock.advance(3000);
  t.same(h.statuses, ['saving', 'offline']);
  t.equal(h.saver.pending(), true, 'the page still holds unsaved text');
  await h.clock.advance(RETRY_STEPS_MS[0]!);
  t.equal(h.sent.length, 2, 'retried after the first backoff step');
  h.setOnline(true);
  h.saver.online();
  await settle();
  await settle();
  t.equal(h.sent.length, 3);
  t.same(h.sent.map((s) => s.draft.content), ['<p>every keystroke</p>', '<p>every keystroke</p>', '<p>every keystroke</p>']);
  t.equal(h.statuses.at(-1), 'saved');
  t.equal(h.saver.pending(), false);
});

t.test('a refusal is not retried, but the text waits for the next change', async (t) => {
  const h = harness([{ ok: false, retry: false, field: 'title', message: 'The title must be under 255 characters.' }, { ok: true, articleId: 3 }]);
  h.saver.change({ title: 'x'.repeat(300), content: '' });
  await h.clock.advance(3000);
  await h.clock.advance(60_000);
  t.equal(h.sent.length, 1, 'no retry loop on a refusal');
  t.equal(h.saver.pending(), true);
  h.saver.change({ title: 'short', content: '' });
  await h.clock.advance(3000);
  t.equal(h.sent.length, 2);
  t.equal(h.saver.pending(), false);
});

t.test('a server error is retried on the backoff steps', async (t) => {
  const h = harness([{ ok: false, retry: true, message: 'boom' }, { ok: false, retry: true, message: 'boom' }, { ok: true, articleId: 1 }]);
  h.saver.change({ title: 'a', content: '' });
  await h.clock.advance(3000);
  t.same(h.statuses, ['saving', 'failed']);
  await h.clock.advance(RETRY_STEPS_MS[0]!);
  await h.clock.advance(RETRY_STEPS_MS[1]!);
  t.equal(h.sent.length, 3);
  t.equal(h.statuses.at(-1), 'saved');
});

t.test('the client counts words as the server does', async (t) => {
  for (const text of ['', '  ', 'one', 'one two  three', 'a\nb\tc', 'x'.repeat(10)]) {
    t.equal(countWordsInText(text), countWords(`<p>${text}</p>`), JSON.stringify(text));
  }
});

t.test('autosaved time: time of day today, otherwise day and month', async (t) => {
  const now = new Date('2026-11-22T15:00:00Z');
  t.equal(savedTime(new Date('2026-11-22T09:05:00Z'), now, 'en-US', 'UTC'), '9:05 AM');
  t.equal(savedTime(new Date('2026-11-20T09:05:00Z'), now, 'en-US', 'UTC'), 'Nov 20');
});

t.test('text typed while a save is on the wire is not reported as autosaved', async (t) => {
  const clock = fakeTimers();
  const statuses: string[] = [];
  let release: () => void = () => {};
  const saver = new Autosaver({
    articleId: 1,
    timers: clock.timers,
    onStatus: (s) => statuses.push(s.kind),
    send: () => new Promise((resolve) => (release = () => resolve({ ok: true, articleId: 1 }))),
  });
  saver.change({ title: 'a', content: '' });
  await clock.advance(3000);
  saver.change({ title: 'ab', content: '' });
  release();
  await settle();
  t.same(statuses, ['saving', 'saving'], 'still saving: the newer text waits for its own save');
  await clock.advance(3000);
  release();
  await settle();
  t.same(statuses, ['saving', 'saving', 'saving', 'saved']);
});

t.test('settle: before the form posts itself, the save on the wire ends and names the new article', async (t) => {
  const clock = fakeTimers();
  const sent: Draft[] = [];
  let release: () => void = () => {};
  const saver = new Autosaver({
    articleId: null,
    timers: clock.timers,
    onStatus: () => {},
    send: (draft) => {
      sent.push(draft);
      return new Promise((resolve) => (release = () => resolve({ ok: true, articleId: 77 })));
    },
  });
  saver.change({ title: 'first', content: '' });
  await clock.advance(3000);
  saver.change({ title: 'second', content: '' });
  let settled = false;
  const done = saver.settle().then(() => (settled = true));
  await settle();
  t.equal(settled, false, 'waits for the save on the wire');
  release();
  await done;
  t.equal(saver.articleId, 77, 'the form can name the article the first save created');
  await clock.advance(10_000);
  t.equal(sent.length, 1, 'nothing more is sent: the form post carries the latest text');
});

t.test('resume: back from a post that did not happen, the unsaved text is saved', async (t) => {
  const h = harness();
  h.saver.change({ title: 'typed', content: '' });
  await h.saver.settle();
  await h.clock.advance(10_000);
  t.equal(h.sent.length, 0, 'held while the page posts');
  h.saver.resume();
  await h.clock.advance(0);
  t.equal(h.sent.length, 1);
});
