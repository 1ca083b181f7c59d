import t from 'tap';
import type { ReplyView } from '#src/features/forum/types.ts';
import type { MemberSnapshot } from '#src/features/members/types.ts';
import { authorLineInner, esc, itemActionsInner, replyArticleInner, type HtmlContext } from '#src/features/forum/views/item-html.ts';

// The thread's markup written as strings (decision 0034): every value escaped, links under the base
// path, a former member's name without a profile link. The pages' own tests check the whole page.
const ctx: HtmlContext = {
  t: (key, values) => (values ? `${key}${JSON.stringify(values)}` : key),
  basePath: '/c',
  now: new Date('2026-11-26T12:00:00Z'),
  csrfToken: 'tok"<en>',
};

const member = (over: Partial<MemberSnapshot> = {}): MemberSnapshot => ({
  id: 7,
  name: 'Ada <b>Lovelace</b>',
  firstName: 'Ada',
  lastName: 'Lovelace',
  isModerator: false,
  companyName: 'Engines & "Co"',
  avatar: null,
  jobTitle: null,
  location: null,
  isActive: true,
  pronouns: null,
  displayPronouns: false,
  industry: null,
  ...over,
});

t.test('esc escapes what React escapes', async (t) => {
  t.equal(esc(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;');
  t.equal(esc(42), '42');
});

t.test('the author line: escaped name and company, a profile link under the base path, the time', async (t) => {
  const html = authorLineInner(member(), ctx, new Date('2026-11-26T11:00:00Z'), true);
  t.match(html, '<a href="/c/profile/7">Ada &lt;b&gt;Lovelace&lt;/b&gt;</a>');
  t.match(html, 'Engines &amp; &quot;Co&quot;');
  t.notMatch(html, '<b>');
  t.match(html, '<time dateTime="2026-11-26T11:00:00.000Z" data-rel="">', 'marked for the script that keeps relative times current');
  t.match(html, 'forumPages.badges.edited');
  t.match(html, '<span class="forum-avatar member-initials" aria-hidden="true">AL</span>');
  const photo = authorLineInner(member({ avatar: '/avatars/abc/200.webp' }), ctx);
  t.match(photo, '<img class="forum-avatar" src="/c/avatars/abc/80.webp" alt=""', 'the 80 px preset under the base path');
  const former = authorLineInner(member({ isActive: false, name: 'Former member' }), ctx);
  t.notMatch(former, '<a ', 'a former or deactivated member has no profile link');
  t.match(former, '<p>Former member');
});

t.test('the like and reactions form: one CSRF field (escaped), where to go back, pressed states', async (t) => {
  const html = itemActionsInner('reply', 9, 2, true, [{ reaction: 'celebrate', count: 3, mine: false }], { postId: 4, after: 'x"y' }, ctx);
  t.equal(html.match(/name="_csrf"/g)?.length, 1);
  t.match(html, 'value="tok&quot;&lt;en&gt;"');
  t.match(html, '<input type="hidden" name="post" value="4"/><input type="hidden" name="after" value="x&quot;y"/>');
  t.match(html, 'id="like-reply-9-button" aria-pressed="true"');
  t.match(html, 'value="0"', 'liked: the button takes the like back');
  t.match(html, 'formAction="/c/forum/reply/9/like"');
  t.match(html, 'id="react-reply-9-celebrate" aria-pressed="false" name="toggle"');
  t.match(html, 'value="celebrate:1"');
});

t.test("a reply's article: the message as saved, actions only when published, the links it may have", async (t) => {
  const reply: ReplyView = {
    id: 5,
    postId: 4,
    author: member(),
    bodyHtml: '<p>Sanitised <strong>already</strong></p>',
    createdAt: new Date('2026-11-25T12:00:00Z'),
    editedAt: null,
    status: 'removed',
    moderationNote: 'Off <topic>',
    likeCount: 0,
    likedByMe: false,
    reactions: [],
    reportedByMe: false,
    abilities: { canEdit: false, canDelete: true, canRemove: false, canReport: false, canModerate: false },
  };
  const html = replyArticleInner(reply, { postId: 4 }, ctx);
  t.match(html, '<div class="forum-body"><p>Sanitised <strong>already</strong></p></div>');
  t.notMatch(html, 'forum-actions', 'no like or reactions on a removed reply');
  t.match(html, 'role="alert"');
  t.match(html, 'Off &lt;topic&gt;', "the moderator's note, escaped");
  t.match(html, 'href="/c/forum/reply/5/delete"');
  t.notMatch(html, '/edit"');
  const published = replyArticleInner({ ...reply, status: 'published', reportedByMe: true }, { postId: 4 }, ctx);
  t.match(published, '<div class="forum-actions"><form class="forum-actions-form" action="/c/forum/reply/5/react" method="post">');
  t.match(published, 'forum.reportedByYou');
});
