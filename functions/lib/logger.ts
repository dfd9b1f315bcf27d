import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({
  serviceName: 'opzione-casa',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT' | undefined) ?? 'INFO',
});
