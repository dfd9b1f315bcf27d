/**
 * Imported first by the reliability benchmarks (bench/load.ts, bench/faults.ts): the
 * handlers' logger reads LOG_LEVEL when it loads, so it is set before any other import.
 * Warnings and errors stay (a mail left for the retry, an import that failed); the
 * per-request info lines and the SDK's notices about Node versions go.
 */
process.env.LOG_LEVEL ??= 'WARN';
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
process.removeAllListeners('warning');
