/**
 * The voice widget's box on the home page (spec 000 section 9), apart from the runtime
 * config schemas so the home page can use it without loading zod before the first paint.
 */
export const VOICE_WIDGET_SIZE = { width: 238, height: 423 } as const;
