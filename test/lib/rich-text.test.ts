import t from 'tap';
import { cleanRichText, htmlToText, textToHtml } from '#src/lib/rich-text.ts';

t.test('a bare link ending on a character that HTML escapes keeps that character whole', async (t) => {
  t.equal(
    textToHtml('Q&A: https://a.com/x&'),
    '<p>Q&amp;A: <a href="https://a.com/x&amp;">https://a.com/x&amp;</a></p>',
    'a trailing & is part of the link, escaped once',
  );
  t.equal(
    textToHtml('see https://a.com/?a=1&b=2 now'),
    '<p>see <a href="https://a.com/?a=1&amp;b=2">https://a.com/?a=1&amp;b=2</a> now</p>',
    'an & inside the query string is escaped in the href and the label',
  );
  t.equal(
    textToHtml('x https://a.com/"q" <https://b.com/>'),
    '<p>x <a href="https://a.com/">https://a.com/</a>&quot;q&quot; &lt;<a href="https://b.com/">https://b.com/</a>&gt;</p>',
    'quotes and angle brackets end a link and stay escaped text after it',
  );
  t.equal(textToHtml('https://a.com/x>y'), '<p><a href="https://a.com/x">https://a.com/x</a>&gt;y</p>', 'no half entity is cut off');
});

t.test('bold and italics still work around and beside links', async (t) => {
  t.equal(
    textToHtml('**https://a.com** and *it*'),
    '<p><strong><a href="https://a.com">https://a.com</a></strong> and <em>it</em></p>',
  );
  t.equal(textToHtml('https://a.com/*x*'), '<p><a href="https://a.com/*x">https://a.com/*x</a>*</p>', 'stars inside a link are not italics');
});

t.test('typed text with links comes back unchanged from the stored HTML', async (t) => {
  for (const text of ['Q&A: https://a.com/x&', 'see https://a.com/?a=1&b=2 now', 'x https://a.com/"q" <https://b.com/>']) {
    t.equal(htmlToText(textToHtml(text)), text, text);
  }
});

t.test('the sanitiser stores underline as <u>, which the CSP lets show', async (t) => {
  t.equal(cleanRichText('<p>a <u>b</u> c</p>'), '<p>a <u>b</u> c</p>', 'keeps <u>');
  t.equal(cleanRichText('<p><span style="text-decoration:underline">b</span></p>'), '<p><u>b</u></p>', 'an underlined span becomes <u>');
  t.equal(cleanRichText('<p><span style="color: red; text-decoration: underline">b</span></p>'), '<p><u>b</u></p>', 'among other declarations too');
  t.equal(cleanRichText('<p><span style="text-decoration-line: underline">b</span></p>'), '<p><u>b</u></p>', 'and as text-decoration-line');
  t.equal(cleanRichText('<p><span style="color:red">b</span> <span class="x">c</span></p>'), '<p>b c</p>', 'other spans are unwrapped, their text kept');
  t.equal(cleanRichText('<p><span style="text-decoration: line-through">b</span></p>'), '<p>b</p>', 'a line-through is not an underline');
  t.notMatch(cleanRichText('<p><u style="x" onclick="y()">b</u></p>'), /style|onclick/, 'no attribute on <u>');
});
