import { buildApp } from './app';
import { loadConfigOrExit } from './config';

/** `npm start`: the API and the web app on one port, data in DATA_DIR. */
async function main() {
  const config = loadConfigOrExit();
  const app = await buildApp(config);
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`open ${config.publicUrl} — data in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}, files in ${app.fileStore.where}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
