import { route } from '../lib/http';

export const handler = route('health', {}, async () => ({ status: 'ok' }));
