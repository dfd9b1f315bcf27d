/**
 * The site's Content-Security-Policy allows no eval. zod compiles its object parsers with
 * `new Function` where it may, and its probe for that, made when an object schema is
 * created, is reported by the browser as a violation even though zod catches it. Jitless,
 * zod parses the same without the probe.
 *
 * Set through the global zod reads its configuration from (`globalThis.__zod_globalConfig`,
 * zod/v4/core/core.js), not with `z.config()`: importing zod here would load it before the
 * first paint. main.tsx imports this module first, before any module that creates a schema.
 * test/e2e/edge-headers.test.ts fails on any CSP violation, this one included.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
