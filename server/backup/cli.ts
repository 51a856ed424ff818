import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BackupError } from './manifest';
import type { Config } from '../config';

/** «1 file», «3 files». */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Where the server keeps uploaded files: FILES_DIR, or the S3 bucket (and prefix) of FILES_S3_*. */
export function filesLocation(config: Pick<Config, 'filesDir' | 's3'>): string {
  return config.s3 ? `s3://${config.s3.bucket}/${config.s3.prefix}` : config.filesDir;
}

/** Bytes for people: 1.2 MB. */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * Runs `npm run backup` or `npm run restore`: its arguments read strictly (a usage line for a
 * wrong one), a BackupError printed as one line on stderr, and exit code 1 for any failure.
 */
export function runCli<T extends NonNullable<ParseArgsConfig['options']>>(
  name: string,
  usage: string,
  options: T,
  main: (args: { values: Record<string, unknown>; positionals: string[] }) => Promise<void>,
): void {
  let args: { values: Record<string, unknown>; positionals: string[] };
  try {
    args = parseArgs({ options, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${usage}\n`);
    process.exit(1);
  }
  main(args).catch((error: unknown) => {
    if (error instanceof BackupError) process.stderr.write(`${name} failed: ${error.message}\n`);
    else console.error(error);
    process.exit(1);
  });
}
