export { createApp } from './app.js';
export { loadConfig, ConfigError, sqliteFile, type Config } from './config.js';
export { openDatabase, dialectOf, sqliteSettings, type Dialect } from './db/connection.js';
export { migrateToLatest, migrateDown } from './db/migrate.js';
export { backupDatabase, type BackupResult } from './db/backup.js';
export { createLogger, prettyLine, type Logger } from './logger.js';
export { apiRoutes, type RouteSpec, type Deps } from './routes/index.js';
export { startPortal, type RunningPortal, type StartOptions } from './server.js';
export { openApiDocument } from './openapi.js';
