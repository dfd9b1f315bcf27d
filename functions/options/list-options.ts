import type { OptionList } from '../domain/review/schemas';
import { route } from '../lib/http';
import { listOptions } from '../model/option';

/** GET /admin/options: every purchase option, newest first, with property, seller and agent names. */
export const handler = route('listOptions', {}, async (): Promise<OptionList> => ({ items: await listOptions() }));
