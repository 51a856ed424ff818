import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '../webhooks/targets';
import { fetchLinkPreview, readPreview } from './linkPreview';
import { SafeFetchError } from './safeFetch';

/* A link's preview: what is read from a page's head, and the fetch through safeFetch. */

const url = new URL('https://example.org/articles/42?x=1');

describe('readPreview', () => {
  test('Open Graph first; addresses made absolute; text trimmed', () => {
    const html = `<!doctype html><html><head>
      <title>Заголовок страницы</title>
      <meta property="og:title" content="  Статья о сторонах света ">
      <meta property="og:description" content="Север, юг,
        запад и восток.">
      <meta property="og:image" content="/images/cover.png">
      <meta property="og:site_name" content="Пример">
      <link rel="icon" href="/favicon-32.png">
    </head><body><p>текст</p></body></html>`;
    expect(readPreview(html, url)).toEqual({
      url: url.href,
      title: 'Статья о сторонах света',
      description: 'Север, юг, запад и восток.',
      image: 'https://example.org/images/cover.png',
      icon: 'https://example.org/favicon-32.png',
      siteName: 'Пример',
    });
  });

  test('falls back to Twitter cards, then the page’s own title and description; the icon to /favicon.ico', () => {
    const html = `<html><head><title> Просто   заголовок </title><meta name="description" content="Описание"><meta name="twitter:image" content="https://cdn.example.net/p.jpg"></head></html>`;
    expect(readPreview(html, url)).toMatchObject({
      title: 'Просто заголовок',
      description: 'Описание',
      image: 'https://cdn.example.net/p.jpg',
      icon: 'https://example.org/favicon.ico',
      siteName: null,
    });
  });

  test('no javascript: or data: addresses; <base> counts; long text cut; nothing for an empty head', () => {
    const html = `<html><head><base href="https://static.example.org/a/"><meta property="og:image" content="javascript:alert(1)"><link rel="icon" href="i.png"><title>${'д'.repeat(500)}</title></head></html>`;
    const preview = readPreview(html, url);
    expect(preview.image).toBeNull();
    expect(preview.icon).toBe('https://static.example.org/a/i.png');
    expect(preview.title).toHaveLength(300);
    expect(readPreview('', url)).toMatchObject({ title: null, description: null, image: null, siteName: null });
  });
});

describe('fetchLinkPreview', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/page') {
        response.writeHead(200, { 'content-type': 'text/html; charset=windows-1251' });
        // «Привет» in windows-1251.
        return response.end(
          Buffer.concat([Buffer.from('<html><head><title>'), Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), Buffer.from('</title></head></html>')]),
        );
      }
      if (request.url === '/file.pdf') {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        return response.end('%PDF');
      }
      response.writeHead(302, { location: 'http://169.254.169.254/' });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const allow = (address: string, p: number) => (address === '127.0.0.1' && p === port) || isPublicAddress(address);

  test('reads the page in its charset; a file that is not HTML gives its address only; a redirect inside is refused', async () => {
    expect((await fetchLinkPreview(`http://127.0.0.1:${port}/page`, { allow })).title).toBe('Привет');
    expect(await fetchLinkPreview(`http://127.0.0.1:${port}/file.pdf`, { allow })).toEqual({
      url: `http://127.0.0.1:${port}/file.pdf`,
      title: null,
      description: null,
      image: null,
      icon: null,
      siteName: null,
    });
    await expect(fetchLinkPreview(`http://127.0.0.1:${port}/elsewhere`, { allow })).rejects.toBeInstanceOf(SafeFetchError);
  });
});
