import { readFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { brandRoles, brandStyle, contrast, DARK, darken, LIGHT, lighten, luminance, mix, parseHex, surfacesOf, TEXT_CONTRAST, textOn, toHex, worstContrast } from '#src/lib/color.ts';

const near = (t: Test, actual: number, expected: number, what: string) => t.ok(Math.abs(actual - expected) < 0.01, `${what}: ${actual.toFixed(3)} is about ${expected}`);

t.test('luminance and contrast are the WCAG 2.1 formulas', async (t) => {
  t.equal(luminance('#000000'), 0);
  t.equal(luminance('#ffffff'), 1);
  near(t, contrast('#ffffff', '#000000'), 21, 'white on black');
  near(t, contrast('#000', '#fff'), 21, 'either order, short hex');
  near(t, contrast('#767676', '#ffffff'), 4.54, 'the classic 4.5:1 grey');
  near(t, contrast('#1f4e79', '#ffffff'), 8.66, "Summit's navy on white");
  t.equal(contrast('#123456', '#123456'), 1, 'a colour on itself');
});

t.test('hex in and out; anything else is not a colour', async (t) => {
  t.same(parseHex('#1F4e79'), [31, 78, 121]);
  t.same(parseHex('#abc'), [170, 187, 204]);
  for (const bad of ['', 'red', '#12345', '#1234567', '1f4e79', '#gggggg', '#fff;}body{x:y']) t.equal(parseHex(bad), null, `${JSON.stringify(bad)} is refused`);
  t.equal(toHex([300, -4, 127.6]), '#ff0080', 'clamped and rounded');
  t.throws(() => luminance('navy'), TypeError);
});

t.test('mix, lighten and darken move in a straight line in sRGB', async (t) => {
  t.equal(mix('#000000', '#ffffff', 0.5), '#808080');
  t.equal(mix('#102030', '#ffffff', 0), '#102030');
  t.equal(mix('#102030', '#ffffff', 1), '#ffffff');
  t.equal(mix('#102030', '#ffffff', 7), '#ffffff', 'the weight is clamped');
  t.equal(lighten('#000000', 0.25), '#404040');
  t.equal(darken('#ffffff', 0.25), '#bfbfbf');
});

t.test('text on a fill is white or dark, whichever reaches 4.5:1', async (t) => {
  t.equal(textOn('#1f4e79'), '#ffffff', 'white on navy');
  t.not(textOn('#ffd400'), '#ffffff', 'dark on yellow');
  for (const fill of ['#777777', '#808080', '#0f5e54', '#ff00ff', '#00ff00', '#3b82f6', '#e11d48', '#ffffff', '#000000'])
    t.ok(contrast(textOn(fill), fill) >= 4.5, `${fill}: ${contrast(textOn(fill), fill).toFixed(2)}`);
});

const SAMPLES = [
  ['Summit', '#1f4e79', '#a64b00'],
  ['Harbor', '#0f5e54', '#8a3b12'],
  ['the members sites', '#2b2b6b', '#a64b00'],
  ['white', '#ffffff', '#ffffff'],
  ['black', '#000000', '#000000'],
  ['a pale yellow', '#fff3a0', '#ffd400'],
  ['a mid grey', '#777777', '#888888'],
  ['pure blue and red', '#0000ff', '#ff0000'],
  ['a light cyan', '#7fdbff', '#01ff70'],
] as const;

t.test('every community gets readable brand roles in both schemes, whatever its colours', async (t) => {
  for (const [name, primary, accent] of SAMPLES) {
    for (const [schemeName, scheme] of [['light', LIGHT], ['dark', DARK]] as const) {
      const roles = brandRoles(primary, accent, scheme);
      const surfaces = [...surfacesOf(scheme), roles['brand-soft']];
      const what = `${name} (${primary}, ${accent}), ${schemeName}`;
      t.ok(worstContrast(roles['brand-ink'], surfaces) >= TEXT_CONTRAST, `${what}: brand-ink ${roles['brand-ink']} on every surface`);
      t.ok(worstContrast(roles['accent-ink'], surfaces) >= TEXT_CONTRAST, `${what}: accent-ink ${roles['accent-ink']} on every surface`);
      t.ok(contrast(roles['on-brand'], primary) >= 4.5, `${what}: on-brand on the brand`);
      t.ok(contrast(roles['on-brand'], roles['brand-hover']) >= 4.5, `${what}: on-brand on the header's hover`);
      t.ok(worstContrast(roles['brand-soft'], [scheme.ink, scheme.muted]) >= TEXT_CONTRAST, `${what}: ink and muted text on brand-soft`);
    }
  }
});

t.test('Summit and Harbor keep their own colours where they already read', async (t) => {
  for (const [primary, accent] of [['#1f4e79', '#a64b00'], ['#0f5e54', '#8a3b12']]) {
    const light = brandRoles(primary, accent, LIGHT);
    t.equal(light['brand-ink'], primary, `${primary} is its own ink on white`);
    t.equal(light['accent-ink'], accent, `${accent} too`);
    t.equal(light['on-brand'], '#ffffff');
    const dark = brandRoles(primary, accent, DARK);
    t.ok(luminance(dark['brand-ink']) > luminance(primary), 'in the dark scheme the ink is a lighter shade of the brand');
    const [r, g, b] = parseHex(dark['brand-ink'])!;
    const [pr, pg, pb] = parseHex(primary)!;
    t.ok(Math.sign(b - r) === Math.sign(pb - pr) && Math.sign(g - r) === Math.sign(pg - pr), `and keeps its hue (${dark['brand-ink']})`);
  }
});

t.test('the inline style: the light roles at :root, the dark ones under prefers-color-scheme', async (t) => {
  const css = brandStyle('#1F4E79', '#a64b00');
  t.match(css, /^:root\{--brand:#1f4e79;--accent:#a64b00;--brand-ink:#1f4e79;--on-brand:#ffffff;--brand-soft:#[0-9a-f]{6};--brand-hover:#[0-9a-f]{6};--accent-ink:#a64b00\}/);
  t.match(css, /@media \(prefers-color-scheme:dark\)\{:root\{--brand-ink:#[0-9a-f]{6};.*--accent-ink:#[0-9a-f]{6}\}\}$/);
  t.equal(brandStyle('#1F4E79', '#a64b00'), css, 'the same answer again (memoised)');
  t.equal(brandStyle('red;}body{display:none', '#a64b00'), '', 'a value that is not a colour never reaches the page');
  t.equal(brandStyle('#1f4e79', '</style><script>'), '');
});

t.test("the schemes' neutrals are the stylesheet's", async (t) => {
  const css = readFileSync(path.resolve(import.meta.dirname, '../../static/css/app.css'), 'utf8');
  const lightBlock = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
  const darkStart = css.indexOf('@media (prefers-color-scheme: dark)');
  const darkBlock = css.slice(darkStart, css.indexOf('}', darkStart));
  for (const [block, scheme, name] of [[lightBlock, LIGHT, 'light'], [darkBlock, DARK, 'dark']] as const) {
    for (const [role, value] of Object.entries(scheme)) t.match(block, new RegExp(`--${role}: ${value};`), `${name} --${role} is ${value}`);
  }
  // The stylesheet's own brand roles (a page without a community) are the default community's.
  const defaults = brandRoles('#1f4e79', '#a64b00', DARK);
  t.match(darkBlock, new RegExp(`--brand-ink: ${defaults['brand-ink']};`), 'the dark fallback brand-ink is derived, not guessed');
});

t.test("the stylesheet's text roles read on every surface of their scheme", async (t) => {
  const css = readFileSync(path.resolve(import.meta.dirname, '../../static/css/app.css'), 'utf8');
  const lightStart = css.indexOf(':root {');
  const darkStart = css.indexOf('@media (prefers-color-scheme: dark)');
  for (const [block, scheme, name] of [
    [css.slice(lightStart, css.indexOf('}', lightStart)), LIGHT, 'light'],
    [css.slice(darkStart, css.indexOf('}', darkStart)), DARK, 'dark'],
  ] as const) {
    const value = (role: string) => new RegExp(`--${role}: (#[0-9a-f]{6});`).exec(block)?.[1];
    for (const role of ['ink', 'muted', 'brand-ink', 'accent-ink']) {
      const color = value(role)!;
      t.ok(worstContrast(color, surfacesOf(scheme)) >= 4.5, `${name}: --${role} ${color} on every surface`);
    }
    for (const status of ['danger', 'success', 'warning', 'info']) {
      const color = value(status)!;
      t.ok(worstContrast(color, [scheme.paper, scheme.wash, scheme[`${status}-soft` as keyof typeof scheme]]) >= 4.5, `${name}: --${status} ${color} on paper, wash and its soft background`);
    }
    t.ok(contrast(value('line-strong')!, scheme.paper) >= 3, `${name}: a control's border is 3:1 on paper (WCAG 1.4.11)`);
    t.ok(contrast(value('on-highlight') ?? '#20303f', '#ffbf47') >= 4.5, `${name}: text on the highlight`);
  }
});
