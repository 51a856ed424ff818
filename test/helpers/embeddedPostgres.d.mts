export function freeTcpPort(): Promise<number>;
export const THROWAWAY_POSTGRES_FLAGS: string[];
export function startEmbeddedPostgres(options?: { flags?: string[] }): Promise<{ url: string; stop(): Promise<void> }>;
