import { describe, expect, it } from 'vitest';
import { blend, contrastRatio, parseColor } from '../../src/dom/colour.js';

// The colour arithmetic behind the "same colour as its background" rule of planloop/dom.
describe('colour', () => {
  it('reads the colour forms computed styles give, and nothing it cannot tell', () => {
    expect(parseColor('rgb(255, 0, 0)')).toEqual([255, 0, 0, 1]);
    expect(parseColor('rgb(255 0 0 / 50%)')).toEqual([255, 0, 0, 0.5]);
    expect(parseColor('rgba(0, 0, 0, 0.25)')).toEqual([0, 0, 0, 0.25]);
    expect(parseColor('#fff')).toEqual([255, 255, 255, 1]);
    expect(parseColor('transparent')).toEqual([0, 0, 0, 0]);
    expect(parseColor('hsl(0 0% 0%)')).toBeUndefined();
    expect(parseColor(undefined)).toBeUndefined();
  });

  it('lays a translucent colour over an opaque one, and grey on white tells apart from black on white', () => {
    expect(blend([0, 0, 0, 0.5], [255, 255, 255])).toEqual([127.5, 127.5, 127.5]);
    expect(blend([10, 20, 30, 1], [255, 255, 255])).toEqual([10, 20, 30]);
    expect(contrastRatio(blend([238, 238, 238, 1], [255, 255, 255]), [255, 255, 255])).toBeLessThan(1.2);
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21);
  });
});
