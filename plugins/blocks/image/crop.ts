import type { ImageCrop } from './block';

export interface Point {
  x: number;
  y: number;
}
export interface BoxRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const round = (n: number) => Math.round(n * 100) / 100;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The crop a rectangle drawn from `a` to `b` (client coordinates) over an image drawn in `box`
 * makes, in percent of the image, kept inside it; null when the rectangle is too small to mean
 * anything (under 2 % either way).
 */
export function cropFromPoints(a: Point, b: Point, box: BoxRect): ImageCrop | null {
  if (box.width <= 0 || box.height <= 0) return null;
  const toX = (x: number) => clamp(((x - box.left) / box.width) * 100, 0, 100);
  const toY = (y: number) => clamp(((y - box.top) / box.height) * 100, 0, 100);
  const left = round(Math.min(toX(a.x), toX(b.x)));
  const top = round(Math.min(toY(a.y), toY(b.y)));
  const right = round(Math.max(toX(a.x), toX(b.x)));
  const bottom = round(Math.max(toY(a.y), toY(b.y)));
  if (right - left < 2 || bottom - top < 2) return null;
  return { left, top, width: round(right - left), height: round(bottom - top) };
}

/**
 * How a cropped image is drawn: the frame keeps the crop's aspect ratio and hides the rest; the
 * image inside is scaled up and shifted so the crop fills the frame. Needs the natural size.
 */
export function cropLayout(crop: ImageCrop, natural: { width: number; height: number }) {
  return {
    frame: { aspectRatio: `${natural.width * crop.width} / ${natural.height * crop.height}` },
    image: {
      width: `${(100 * 100) / crop.width}%`,
      left: `${(-crop.left * 100) / crop.width}%`,
      top: `${(-crop.top * 100) / crop.height}%`,
    },
  };
}
