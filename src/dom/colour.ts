import { passShared } from './read-pass.js';

/*
 * Colours as the sight rules need them: CSS colour text read into numbers (kept per outline),
 * one colour laid over another, and the WCAG contrast ratio that tells text drawn in its
 * background's colour.
 */

/**
 * The WCAG contrast ratio of two opaque sRGB colours (`[r, g, b]`, 0 to 255): 1 (same) to 21.
 *
 * @example
 * ```ts
 * contrastRatio([255, 255, 255], [0, 0, 0]); // 21
 * ```
 */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(rgb: readonly number[]): number {
  return 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2]);
}

function linear(channel: number | undefined): number {
  const c = (channel ?? 0) / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** A colour as `[r, g, b, alpha]`: channels 0 to 255, alpha 0 to 1. */
export type Color = [number, number, number, number];

/**
 * `rgb()`/`rgba()` (commas or spaces), `#rgb`/`#rrggbb`, `transparent`, `white`, `black`; undefined
 * otherwise. During an outline each colour text is parsed once (a page uses a few colours on
 * thousands of elements); the arrays are shared, never changed.
 *
 * @example
 * ```ts
 * parseColor('rgb(255 0 0 / 50%)'); // [255, 0, 0, 0.5]
 * parseColor('#fff');               // [255, 255, 255, 1]
 * parseColor('hsl(0 0% 0%)');       // undefined: not read, so the text counts as seen
 * ```
 */
export function parseColor(text: string | undefined): Color | undefined {
  const key = text ?? '';
  const known = passShared('colors', () => new Map<string, Color | undefined>());
  if (known.has(key)) return known.get(key);
  const color = parseColorText(key);
  if (known.size < MAX_KNOWN_COLORS) known.set(key, color);
  return color;
}

/** Colours kept in one outline (a page that sets a colour per element gets no more). */
const MAX_KNOWN_COLORS = 512;

function parseColorText(text: string): Color | undefined {
  const value = text.trim().toLowerCase();
  if (!value) return undefined;
  if (value === 'transparent') return [0, 0, 0, 0];
  if (value === 'white') return [255, 255, 255, 1];
  if (value === 'black') return [0, 0, 0, 1];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)).concat(1) as Color;
  }
  const match = /^rgba?\(([^)]*)\)$/.exec(value);
  if (!match) return undefined;
  const parts = (match[1] ?? '').split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return undefined;
  const channel = (part: string, scale: number) => (part.endsWith('%') ? (Number.parseFloat(part) / 100) * scale : Number.parseFloat(part));
  const rgba = [
    channel(parts[0] as string, 255),
    channel(parts[1] as string, 255),
    channel(parts[2] as string, 255),
    parts[3] === undefined ? 1 : channel(parts[3], 1),
  ];
  return rgba.every(Number.isFinite) ? (rgba as Color) : undefined;
}

/**
 * `top` (`[r, g, b, alpha]`) drawn over the opaque `bottom` (`[r, g, b]`): the opaque colour seen.
 *
 * @example
 * ```ts
 * blend([0, 0, 0, 0.5], [255, 255, 255]); // [127.5, 127.5, 127.5]
 * ```
 */
export function blend(top: readonly number[], bottom: readonly number[]): number[] {
  const alpha = top[3] ?? 1;
  return [
    (top[0] ?? 0) * alpha + (bottom[0] ?? 0) * (1 - alpha),
    (top[1] ?? 0) * alpha + (bottom[1] ?? 0) * (1 - alpha),
    (top[2] ?? 0) * alpha + (bottom[2] ?? 0) * (1 - alpha),
  ];
}
