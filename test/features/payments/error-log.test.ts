import t from 'tap';
import { boundedText, redactCardNumbers } from '#src/features/payments/error-log.ts';

t.test('card numbers are redacted whatever separates the digits', async (t) => {
  const cases: [string, string][] = [
    ['plain', 'card 4242424242424242 declined'],
    ['spaces', 'card 4242 4242 4242 4242 declined'],
    ['dashes', 'card 4242-4242-4242-4242 declined'],
    ['dots', 'card 4242.4242.4242.4242 declined'],
    ['slashes', 'card 4242/4242/4242/4242 declined'],
    ['tabs', 'card 4242\t4242\t4242\t4242 declined'],
    ['newlines', 'card 4242\n4242\r\n4242\n4242 declined'],
    ['mixed, up to 3 separators', 'card 4242 - 4242 / 4242 .4242 declined'],
    ['one digit at a time', 'card 4 2 4 2 4 2 4 2 4 2 4 2 4 2 4 2 declined'],
    ['underscores and commas', 'card 4242_4242,4242_4242 declined'],
    ['an amex in groups', 'card 3782 822463 10005 declined'],
    ['12 digits', 'card 123456789012 declined'],
    ['full-width digits', 'card ４２４２４２４２４２４２４２４２ declined'],
  ];
  for (const [what, text] of cases) {
    const out = redactCardNumbers(text);
    t.equal(out, 'card [redacted] declined', what);
  }
  t.equal(redactCardNumbers('order 12345678901 of 2'), 'order 12345678901 of 2', '11 digits stay');
  t.equal(redactCardNumbers('amount 49900 cents, id 1234'), 'amount 49900 cents, id 1234', 'short numbers stay');
  t.equal(redactCardNumbers('424242 abcd 424242 4242'), '424242 abcd 424242 4242', 'a letter breaks the run');
  t.equal(redactCardNumbers('424242    424242 424'), '424242    424242 424', 'more than 3 separators break the run');
});

t.test('a security code next to its name is redacted', async (t) => {
  const cases: [string, string][] = [
    ['cvv: 123', 'cvv: [redacted]'],
    ['CVV=1234', 'CVV=[redacted]'],
    ['cvc 999 refused', 'cvc [redacted] refused'],
    ['CVV2:321', 'CVV2:[redacted]'],
    ['security code 456', 'security code [redacted]'],
    ['Security-Code: 4567', 'Security-Code: [redacted]'],
    ['security code is 123', 'security code is [redacted]'],
    ['the cvv was 321.', 'the cvv was [redacted].'],
    ['123 (cvv)', '[redacted] (cvv)'],
    ['1234 is the security code', '[redacted] is the security code'],
    ['{"cvc":"777"}', '{"cvc":"[redacted]"}'],
  ];
  for (const [text, want] of cases) t.equal(redactCardNumbers(text), want, text);
  t.equal(redactCardNumbers('error 404 on load'), 'error 404 on load', 'a 3-digit number without the name stays');
  t.equal(redactCardNumbers('cvv 12345'), 'cvv 12345', 'five digits are not a security code');
});

t.test('stored text: control characters out, card data redacted, bounded', async (t) => {
  t.equal(boundedText('a\tb\nc\r\nd\u0000e\u007ff\u0085g'), 'a b c  d e f g', 'tabs, newlines, NUL, DEL and C1 become spaces');
  t.equal(boundedText('tokenize:\t4242\t4242\t4242\t4242\ncvv\t123'), 'tokenize: [redacted] cvv [redacted]');
  t.equal(boundedText('\n\t '), null, 'nothing left: null');
  t.equal(boundedText({ card: '4242424242424242' }), null, 'not text: null');
  t.equal(boundedText(4242424242424242), '[redacted]', 'a number is text too');
  t.equal(boundedText('x'.repeat(600))?.length, 500, 'cut to the limit');
  t.equal(boundedText('x'.repeat(600), 100)?.length, 100);
});
