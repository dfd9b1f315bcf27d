/** Fuzzing every route of the manifest, part 1 of 2: test/support/security-fuzz.ts. */
import { fuzzRoutes } from '../support/security-fuzz';

fuzzRoutes(0, 2);
