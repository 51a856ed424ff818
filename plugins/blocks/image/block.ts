import type { BlockElementBase } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import { isSafeHref, type Token } from '../../../schema/token';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import { copyRemoteFile, fileUrl, readRemoteFileAttributes, remoteFileAttributes, remoteFileSchema } from '../file/block';
import { escapeMarkdown } from '../../../schema/markdown/write';

/** An image (void): its uploaded file, crop, scale and alignment live on the element (no upload state: src/editor/upload.ts). */
export interface ImageElement extends BlockElementBase, ImageData {
  type: 'imageBlock';
}

export const BLOCK_ALIGNS = ['left', 'center', 'right'] as const;
export const blockAlignSchema = z.enum(BLOCK_ALIGNS);
export type BlockAlign = z.infer<typeof blockAlignSchema>;

export const MIN_SCALE = 0.1;
export const MAX_SCALE = 1;
/** A share of the content width, 0.1–1. */
export const scaleSchema = z.number().min(MIN_SCALE).max(MAX_SCALE);

/** A scale kept in range and to two decimals (what a resize handle sets). */
export function clampScale(scale: number): number {
  if (!Number.isFinite(scale)) return MAX_SCALE;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(scale * 100) / 100));
}

const percent = z.number().min(0).max(100);

/** The visible part of an image, in percent of its natural width and height. */
export const cropSchema = z
  .object({ left: percent, top: percent, width: percent.positive(), height: percent.positive() })
  .strict()
  .refine((c) => c.left + c.width <= 100 + 1e-9 && c.top + c.height <= 100 + 1e-9, {
    message: 'the crop lies inside the image',
  });
export type ImageCrop = z.infer<typeof cropSchema>;

export const imageDataSchema = z
  .object({
    remoteData: remoteFileSchema.nullable(),
    crop: cropSchema.nullable(),
    scale: scaleSchema,
    align: blockAlignSchema,
  })
  .strict();
export type ImageData = z.infer<typeof imageDataSchema>;

/** A copy; an absent crop (Slate drops properties set to null) is null. */
function copyCrop(crop: ImageCrop | null | undefined): ImageCrop | null {
  return crop ? { left: crop.left, top: crop.top, width: crop.width, height: crop.height } : null;
}

/**
 * A copy. Fields Slate may have left off the element (a property set to null is dropped; a text
 * block turned into an image by setting its type has none) read as the defaults.
 */
function copyImage(data: Partial<ImageData>): ImageData {
  return { remoteData: copyRemoteFile(data.remoteData), crop: copyCrop(data.crop), scale: data.scale ?? MAX_SCALE, align: data.align ?? 'center' };
}

/**
 * A pasted picture from elsewhere (`<img src="https://…">`) cannot become an image block: an
 * image block only holds a file uploaded to the page, and the browser may not fetch another
 * site's bytes to upload them. It is kept as a text link to the picture instead: these tokens
 * (the alt text, or the address, linked to the address). Null for anything but an http(s) src.
 */
export function pastedImageToTokens(element: Element): Token[] | null {
  const src = element.getAttribute('src');
  if (!src || !isSafeHref(src)) return null;
  const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
  return [{ text: alt || src, link: { href: src } }];
}

/** An image uploaded to the page, shown at `scale` × the content width, aligned, maybe cropped. */
export const imageBlock: BlockDefinition<'image', ImageData, ImageElement> = {
  wireType: 'image',
  slateType: 'imageBlock',
  dataSchema: imageDataSchema,
  shortcuts: [],
  menuGroup: 'media',
  isVoid: true,
  defaultData: () => ({ remoteData: null, crop: null, scale: 1, align: 'center' }),
  canonicalize: copyImage,
  toSlateFields: (data) => ({ children: [{ text: '' }], ...copyImage(data) }),
  toWireData: (element) => {
    if (element.type !== 'imageBlock') throw new Error(`${element.type} is not an image element`);
    return copyImage(element);
  },
  markdown: {
    serialize: ({ remoteData }, md) => (remoteData ? [`![${escapeMarkdown(remoteData.title)}](${md.file(remoteData.fileId, remoteData.title)})`] : []),
  },
  html: {
    serialize: (data) => {
      const remote = data.remoteData;
      if (!remote) return '';
      const crop = data.crop ? ` data-crop="${[data.crop.left, data.crop.top, data.crop.width, data.crop.height].join(',')}"` : '';
      return (
        `<img src="${escapeHtml(fileUrl(remote.fileId))}" alt="${escapeHtml(remote.title)}" ${remoteFileAttributes(remote)}` +
        ` data-scale="${data.scale}" data-align="${data.align}"${crop}>`
      );
    },
    parse: [
      {
        // Only an image copied from this app (it names its uploaded file); other pictures: pastedImageToTokens.
        selector: 'img[data-file-id]',
        read: (element) => {
          const remote = readRemoteFileAttributes(element, element.getAttribute('alt'));
          if (!remote) return null;
          const scale = scaleSchema.safeParse(Number(element.getAttribute('data-scale') ?? 1));
          const align = blockAlignSchema.safeParse(element.getAttribute('data-align') ?? 'center');
          const parts = (element.getAttribute('data-crop') ?? '').split(',').map(Number);
          const crop = cropSchema.safeParse({ left: parts[0], top: parts[1], width: parts[2], height: parts[3] });
          return {
            remoteData: remote,
            crop: crop.success ? crop.data : null,
            scale: scale.success ? scale.data : 1,
            align: align.success ? align.data : 'center',
          };
        },
      },
    ],
  },
};
