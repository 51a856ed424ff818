import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compressible files of a build: what a browser downloads as text. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|map|txt|webmanifest)$/;

/**
 * Writes a `.br` (brotli at its best) and a `.gz` (gzip level 9) next to every compressible file
 * of at least 1 KiB the build wrote, once at build time; the server sends them as they are
 * (@fastify/static `preCompressed`) instead of compressing the same files on every request.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(file);
          else if (COMPRESSIBLE.test(entry.name) && !entry.name.endsWith('.map') && fs.statSync(file).size >= 1024) files.push(file);
        }
      };
      walk(outDir);
      await Promise.all(
        files.map(async (file) => {
          const source = await fs.promises.readFile(file);
          const br = await brotli(source, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length },
          });
          const gz = await gzip(source, { level: 9 });
          await fs.promises.writeFile(`${file}.br`, br);
          await fs.promises.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}
