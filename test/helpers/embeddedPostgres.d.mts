export function freeTcpPort(): Promise<number>;
export function startEmbeddedPostgres(): Promise<{ url: string; stop(): Promise<void> }>;
