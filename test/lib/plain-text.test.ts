import t from 'tap';
import { countWords } from '#src/lib/plain-text.ts';

t.test('words are counted after stripping markup', async (t) => {
  t.equal(countWords('<p>Hello <strong>brave</strong> new</p><p>world</p>'), 4);
  t.equal(countWords('<h2>One</h2><ul><li>two</li><li>three</li></ul>'), 3);
  t.equal(countWords('<p>fish&amp;chips &nbsp; and&nbsp;peas</p>'), 3, 'entities decoded, non-breaking spaces split');
  t.equal(countWords(''), 0);
  t.equal(countWords('<p> </p>'), 0);
});
