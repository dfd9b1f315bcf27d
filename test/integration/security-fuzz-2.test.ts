/** Fuzzing every route of the manifest, part 2 of 2: test/support/security-fuzz.ts. */
import { fuzzRoutes } from '../support/security-fuzz';

fuzzRoutes(1, 2);
