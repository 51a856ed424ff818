import zlib from 'node:zlib';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A small picture (an imported icon, a badge) shows at its own size in real Chromium, not
 * stretched to the column (issue 36 §2); resized, the size set counts.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

/** A PNG of `width` × `height` pixels, one colour. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x4a)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

it('a small picture keeps its own width; one resized to half the column is half the column', async () => {
  const page = await suite.signedIn('small.image@example.com');
  const cookie = await cookieOf(page);
  const made = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Значок' }) });
  const bytes = png(120, 40);
  const ticket = await fetchJson<{ data: { id: string; uploadUrl: string; fields: Record<string, string>; fileField: string } }>(
    `${suite.server.url}/api/file/upload_url`,
    { method: 'POST', cookie, body: JSON.stringify({ pageId: made.data.id, name: 'значок.png', mimeType: 'image/png', size: bytes.length }) },
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.data.fields)) form.append(name, value);
  form.append(ticket.data.fileField, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'значок.png');
  const uploaded = await fetch(new URL(ticket.data.uploadUrl, suite.server.url), { method: 'POST', headers: { cookie }, body: form });
  expect(uploaded.status).toBeLessThan(300);
  const remoteData = { fileId: ticket.data.id, title: 'значок.png', size: bytes.length, mimeType: 'image/png' };
  for (const scale of [1, 0.5])
    await fetchJson(`${S()}/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ pageId: made.data.id, type: 'image', data: { remoteData, crop: null, scale, align: 'center' } }),
    });

  await page.goto(`${suite.server.url}/${made.data.id}`);
  const boxes = page.locator('[data-slate-editor] .media-box');
  await eventually(() => boxes.count(), 2);
  const column = await page
    .locator('[data-slate-editor] .media-row')
    .first()
    .evaluate((row) => row.getBoundingClientRect().width);
  // (Each block was made first on the page: the resized one stands above.)
  await eventually(() => boxes.evaluateAll((all) => all.map((box) => Math.round(box.getBoundingClientRect().width))), [Math.round(column / 2), 120]);
  await shoot(page, 'small-image-1280');
  await page.context().close();
});
