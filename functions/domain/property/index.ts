export * from './enums';
export * from './limits';
export * from './media';
export * from './rooms';
export * from './schema';
export * from './lead-email';
export * from './upload';
