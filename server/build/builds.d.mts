import type { Plugin } from 'esbuild';

export const SERVER_BUNDLE: string;
export const ownImportMetaUrl: Plugin;
export function isStale(output: string, sources: string[], root?: string): boolean;
export function ensureWebBuild(): void;
export function buildServer(): Promise<void>;
export function writeWhole(file: string, contents: string | Uint8Array): Promise<void>;
export function ensureServerBuild(): Promise<void>;
