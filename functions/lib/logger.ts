import { Logger } from '@aws-lambda-powertools/logger';

/** the `service` of every log line and metric */
export const SERVICE_NAME = 'opzione-casa';

export const logger = new Logger({
  serviceName: SERVICE_NAME,
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
});
