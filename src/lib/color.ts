/**
 * Colour arithmetic for the look (issue 30, docs/design-system.md "Colour and type"): WCAG 2.1
 * relative luminance and contrast ratio, mixing in sRGB, and the brand roles each community's page
 * derives from its two settings (communities.color_primary and color_accent, `#rrggbb`), for the light
 * and the dark scheme, so that whatever colours staff choose, text stays readable (4.5:1) on the
 * surfaces it sits on. Pure: no I/O, no state but a small memo.
 */

export type Rgb = readonly [number, number, number];

/** `#rgb` or `#rrggbb` (any case) as its channels 0..255; anything else is null. */
export function parseHex(hex: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? m[1]!.replace(/./g, (c) => c + c) : m[1]!;
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

const hex2 = (n: number) => Math.round(Math.min(255, Math.max(0, n))).toString(16).padStart(2, '0');

/** Channels as `#rrggbb`, lower case, rounded and clamped. */
export function toHex([r, g, b]: Rgb): string {
  return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
}

function rgbOf(color: string | Rgb): Rgb {
  if (typeof color !== 'string') return color;
  const rgb = parseHex(color);
  if (!rgb) throw new TypeError(`not a #rrggbb colour: ${JSON.stringify(color)}`);
  return rgb;
}

const linear = (c: number) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2.1 relative luminance, 0 (black) to 1 (white). */
export function luminance(color: string | Rgb): number {
  const [r, g, b] = rgbOf(color);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2.1 contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrast(a: string | Rgb, b: string | Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `a` mixed with `b`: `weight` of b (0 gives a, 1 gives b), channel by channel in sRGB. */
export function mix(a: string, b: string, weight: number): string {
  const w = Math.min(1, Math.max(0, weight));
  const [x, y] = [rgbOf(a), rgbOf(b)];
  return toHex([x[0] + (y[0] - x[0]) * w, x[1] + (y[1] - x[1]) * w, x[2] + (y[2] - x[2]) * w]);
}

export const lighten = (color: string, amount: number) => mix(color, '#ffffff', amount);
export const darken = (color: string, amount: number) => mix(color, '#000000', amount);

/**
 * The least change of `color` toward `target` (mixing) for which `ok` holds; `target` itself when
 * nothing short of it does. `ok` must hold from some weight on (luminance moves one way as the weight
 * grows, so "contrast at least N against these surfaces" does).
 */
export function nudgeUntil(color: string, target: string, ok: (c: string) => boolean): string {
  if (ok(color)) return color;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 14; i++) {
    const mid = (lo + hi) / 2;
    if (ok(mix(color, target, mid))) hi = mid;
    else lo = mid;
  }
  const found = mix(color, target, hi);
  return ok(found) ? found : target;
}

type Hsl = [h: number, s: number, l: number];

function toHsl([r8, g8, b8]: Rgb): Hsl {
  const [r, g, b] = [r8 / 255, g8 / 255, b8 / 255];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function fromHsl([h, s, l]: Hsl): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const v = u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
    return v * 255;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

/**
 * The least change of `color`'s lightness (HSL), up or down, for which `ok` holds: the same hue and
 * saturation, lighter or darker (mixing with white would wash a brand out to grey). White or black
 * when nothing short of it does.
 */
export function shiftLightness(color: string, up: boolean, ok: (c: string) => boolean): string {
  if (ok(color)) return color;
  const [h, s, l] = toHsl(rgbOf(color));
  const end = up ? 1 : 0;
  const at = (w: number) => toHex(fromHsl([h, s, l + (end - l) * w]));
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 14; i++) {
    const mid = (lo + hi) / 2;
    if (ok(at(mid))) hi = mid;
    else lo = mid;
  }
  const found = at(hi);
  return ok(found) ? found : up ? WHITE : BLACK;
}

/** The lowest contrast of `color` against each of `surfaces`. */
export const worstContrast = (color: string, surfaces: readonly string[]) => Math.min(...surfaces.map((s) => contrast(color, s)));

/**
 * What text must reach: WCAG 2.1 AA asks 4.5:1; a little above it, so rounding in a browser (or in
 * axe) never tips a colour under the line.
 */
export const TEXT_CONTRAST = 4.6;

/**
 * A scheme's surfaces (where text may sit: the page, cards, a hovered row, the status messages'
 * backgrounds) and its text colours: the same values as in static/css/app.css (a test holds them equal).
 */
export type Scheme = {
  paper: string;
  wash: string;
  hover: string;
  'danger-soft': string;
  'success-soft': string;
  'warning-soft': string;
  'info-soft': string;
  ink: string;
  muted: string;
};

export const LIGHT: Scheme = {
  paper: '#ffffff',
  wash: '#f5f6f8',
  hover: '#eef1f5',
  'danger-soft': '#fdecea',
  'success-soft': '#e7f3ec',
  'warning-soft': '#fff3cd',
  'info-soft': '#eaf1f8',
  ink: '#1b1f24',
  muted: '#4f5863',
};
export const DARK: Scheme = {
  paper: '#171a20',
  wash: '#0f1115',
  hover: '#232833',
  'danger-soft': '#3a1816',
  'success-soft': '#12301f',
  'warning-soft': '#332908',
  'info-soft': '#15263b',
  ink: '#e6e9ee',
  muted: '#a3adba',
};

/** The surfaces of a scheme on which a link may sit. */
export const surfacesOf = (scheme: Scheme) => [scheme.paper, scheme.wash, scheme.hover, scheme['danger-soft'], scheme['success-soft'], scheme['warning-soft'], scheme['info-soft']];

/** The brand roles of one scheme, as CSS custom properties (without the leading dashes). */
export type BrandRoles = {
  'brand-ink': string;
  'on-brand': string;
  'brand-soft': string;
  'brand-hover': string;
  'accent-ink': string;
};

const WHITE = '#ffffff';
const BLACK = '#000000';
/** Dark text on a light brand fill: the light scheme's ink, or black where even that falls short. */
const DARK_ON_BRAND = LIGHT.ink;

/** Text on a fill of `fill`: white, or dark ink, whichever reads better (one of them always reaches 4.58:1). */
export function textOn(fill: string): string {
  const dark = contrast(DARK_ON_BRAND, fill) >= TEXT_CONTRAST ? DARK_ON_BRAND : BLACK;
  return contrast(WHITE, fill) >= contrast(dark, fill) ? WHITE : dark;
}

/**
 * A scheme's brand roles from the community's two colours:
 * - `brand-soft`: a tint of the brand for backgrounds (unread rows, selected items), on which ink and
 *   muted text still read;
 * - `brand-ink`: the brand as text and links, darker (light scheme) or lighter (dark), same hue, just
 *   enough to reach 4.5:1 on paper, wash, hover, the status backgrounds and brand-soft;
 * - `on-brand`: text on a brand fill (the header, buttons): white or dark ink;
 * - `brand-hover`: the header's hover and current item, a step from the brand that keeps on-brand readable;
 * - `accent-ink`: the accent as text, as brand-ink.
 */
export function brandRoles(primary: string, accent: string, scheme: Scheme): BrandRoles {
  const dark = luminance(scheme.paper) < 0.2;
  const softSurfaces = [scheme.ink, scheme.muted];
  const soft = nudgeUntil(mix(scheme.paper, primary, dark ? 0.18 : 0.1), scheme.paper, (c) => worstContrast(c, softSurfaces) >= TEXT_CONTRAST);
  const surfaces = [...surfacesOf(scheme), soft];
  const readable = (c: string) => worstContrast(c, surfaces) >= TEXT_CONTRAST;
  const onBrand = textOn(primary);
  const step = mix(primary, onBrand, 0.14);
  const hover = contrast(onBrand, step) >= TEXT_CONTRAST ? step : mix(primary, onBrand === WHITE ? BLACK : WHITE, 0.18);
  return {
    'brand-ink': shiftLightness(toHex(rgbOf(primary)), dark, readable),
    'on-brand': onBrand,
    'brand-soft': soft,
    'brand-hover': hover,
    'accent-ink': shiftLightness(toHex(rgbOf(accent)), dark, readable),
  };
}

const declarations = (roles: Partial<BrandRoles>) =>
  Object.entries(roles)
    .map(([name, value]) => `--${name}:${value}`)
    .join(';');

const memo = new Map<string, string>();

/**
 * The page's inline style for a community: its two colours and their roles in the light scheme at
 * `:root`, and the roles that differ in the dark scheme under `prefers-color-scheme: dark`. Colours
 * that are not `#rrggbb` (the database refuses them; a broken row must not break the page) give the
 * stylesheet's own defaults: an empty string. Only hex digits reach the output, so it is safe inline.
 */
export function brandStyle(primary: string, accent: string): string {
  const key = `${primary}|${accent}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let css = '';
  if (parseHex(primary) && parseHex(accent)) {
    const [p, a] = [toHex(rgbOf(primary)), toHex(rgbOf(accent))];
    const light = brandRoles(p, a, LIGHT);
    const dark = brandRoles(p, a, DARK);
    const darkOnly = Object.fromEntries(Object.entries(dark).filter(([name, value]) => light[name as keyof BrandRoles] !== value));
    css = `:root{--brand:${p};--accent:${a};${declarations(light)}}`;
    if (Object.keys(darkOnly).length) css += `@media (prefers-color-scheme:dark){:root{${declarations(darkOnly)}}}`;
  }
  if (memo.size > 500) memo.clear();
  memo.set(key, css);
  return css;
}
